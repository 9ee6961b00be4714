/**
 * Kubelet's validateCredentialProviderConfig, per version, in its code order
 * (kubernetes/kubernetes pkg/credentialprovider/plugin/config.go at v1.24.17-v1.37.2), and the text
 * kubelet makes of the result: "failed to validate credential provider config: <aggregate>"
 * (apimachinery field.Error.Error, ErrorList.ToAggregate and utilerrors.aggregate.Error).
 *
 * Code generations read: <=1.32 (no duplicate check, NotSupported values in Go map order),
 * 1.33 (duplicates, tokenAttributes, Required errors with detail), 1.34 (cacheType, Required
 * without detail, json.Marshal rendering of values, "must be greater than or equal to 0"),
 * 1.35 (apimachinery's "a valid label key" wording). The exec API versions come from the traits
 * (v1 from 1.26).
 */
import type { KubeletTraits } from '../kubelet/version.js';
import { formatGoDuration } from '../go/duration.js';
import { goJsonMarshalString } from '../go/json.js';
import { goQuote } from '../go/quote.js';
import { parseGoUrl } from '../go/url.js';
import { aggregateError } from '../kubernetes/aggregate.js';
import { oncePerInput } from '../lib/memo.js';
import type { CredentialProviderConfig, FieldError } from './types.js';


const EXEC_API_V1 = 'credentialprovider.kubelet.k8s.io/v1';
const CACHE_TYPES = ['ServiceAccount', 'Token']; // sets.List(validCacheTypes): sorted

/**
 * The field errors kubelet of this version reports for a decoded config, in kubelet's order.
 * `tokenGateEnabled` is KubeletServiceAccountTokenForCredentialProviders as kubelet would see it.
 * NotSupported lists are rendered sorted; kubelet <=1.32 lists them in Go map order, which
 * differs from run to run (see validationTextIsExact).
 */
export function validateCredentialProviderConfig(config: CredentialProviderConfig, traits: KubeletTraits, tokenGateEnabled: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const style = traits.fieldValueStyle;
  const required = (field: string, detail: string): FieldError => ({ type: 'Required', field, detail: traits.requiredErrorsHaveDetail ? detail : '' });

  if (config.providers.length === 0) {
    errors.push({ type: 'Required', field: 'providers', detail: 'at least 1 item in plugins is required' });
  }

  const seenNames = new Set<string>();
  // credentialprovider.ParseSchemelessURL's error for a matchImages entry, once per distinct entry
  // (providers commonly share their patterns; src/lib/memo.ts).
  const matchImageError = oncePerInput((matchImage) => {
    const parsed = parseGoUrl(`https://${matchImage}`);
    return parsed.ok ? undefined : parsed.error;
  });
  for (const provider of config.providers) {
    const name = provider.name;
    const nameError = (detail: string): FieldError => ({ type: 'Invalid', field: 'providers.name', value: goQuote(name), detail });
    if (name.includes('/')) errors.push(nameError("provider name cannot contain '/'"));
    if (name.includes(' ')) errors.push(nameError('provider name cannot contain spaces'));
    if (name === '.') errors.push(nameError("provider name cannot be '.'"));
    if (name === '..') errors.push(nameError("provider name cannot be '..'"));
    // Duplicate names are validated from 1.33 (PR #129669); 1.34+ also rejects them earlier, when merging files.
    if (traits.duplicateProviderNames !== 'fatal-at-registration') {
      if (seenNames.has(name)) errors.push({ type: 'Duplicate', field: 'providers.name', value: goQuote(name), detail: '' });
      seenNames.add(name);
    }

    if (provider.apiVersion === '') {
      errors.push(required('providers.apiVersion', 'apiVersion is required'));
    } else if (!traits.execApiVersions.includes(provider.apiVersion)) {
      errors.push({ type: 'NotSupported', field: 'providers.apiVersion', value: goQuote(provider.apiVersion), detail: supportedValues(traits.execApiVersions) });
    }

    if (provider.matchImages.length === 0) {
      errors.push({ type: 'Required', field: 'providers.matchImages', detail: 'at least 1 item in matchImages is required' });
    }
    for (const matchImage of provider.matchImages) {
      const error = matchImageError(matchImage);
      if (error !== undefined) errors.push({ type: 'Invalid', field: 'providers.matchImages', value: goQuote(matchImage), detail: `match image is invalid: ${error}` });
    }

    if (provider.defaultCacheDuration === undefined) {
      errors.push(required('providers.defaultCacheDuration', 'defaultCacheDuration is required'));
    } else if (provider.defaultCacheDuration < 0n) {
      const text = formatGoDuration(provider.defaultCacheDuration);
      errors.push({
        type: 'Invalid',
        field: 'providers.defaultCacheDuration',
        // <=1.33: time.Duration's String() (-1m0s); 1.34+: json.Marshal(*metav1.Duration) ("-1m0s").
        value: style === 'json' ? goJsonMarshalString(text) : text,
        detail: traits.negativeDurationDetail,
      });
    }

    const token = provider.tokenAttributes;
    if (token && traits.tokenAttributes !== 'absent') {
      const path = 'providers.tokenAttributes';
      if (!tokenGateEnabled) {
        errors.push({ type: 'Forbidden', field: path, detail: 'tokenAttributes is not supported when KubeletServiceAccountTokenForCredentialProviders feature gate is disabled' });
      }
      if (token.serviceAccountTokenAudience === '') errors.push(required(`${path}.serviceAccountTokenAudience`, 'serviceAccountTokenAudience is required'));
      if (token.requireServiceAccount === undefined) errors.push(required(`${path}.requireServiceAccount`, 'requireServiceAccount is required'));
      if (provider.apiVersion !== EXEC_API_V1) {
        errors.push({ type: 'Forbidden', field: path, detail: `tokenAttributes is only supported for ${EXEC_API_V1} API version` });
      }
      if (token.requireServiceAccount === false && token.requiredServiceAccountAnnotationKeys.length > 0) {
        errors.push({ type: 'Forbidden', field: `${path}.requiredServiceAccountAnnotationKeys`, detail: 'requireServiceAccount cannot be false when requiredServiceAccountAnnotationKeys is set' });
      }
      errors.push(...annotationKeyErrors(`${path}.requiredServiceAccountAnnotationKeys`, token.requiredServiceAccountAnnotationKeys, traits));
      errors.push(...annotationKeyErrors(`${path}.optionalServiceAccountAnnotationKeys`, token.optionalServiceAccountAnnotationKeys, traits));
      const optional = new Set(token.optionalServiceAccountAnnotationKeys);
      const both = [...new Set(token.requiredServiceAccountAnnotationKeys.filter((k) => optional.has(k)))].sort(byteOrder);
      if (both.length > 0) {
        const value = style === 'json' ? `[${both.map((k) => goJsonMarshalString(k)).join(',')}]` : `[]string{${both.map((k) => goQuote(k)).join(', ')}}`;
        errors.push({ type: 'Invalid', field: path, value, detail: 'annotation keys cannot be both required and optional' });
      }
      if (traits.tokenAttributes === 'with-cache-type') {
        if (token.cacheType === '') {
          errors.push({ type: 'Required', field: `${path}.cacheType`, detail: `cacheType is required to be set when tokenAttributes is specified. Supported values are: ${CACHE_TYPES.join(', ')}` });
        } else if (!CACHE_TYPES.includes(token.cacheType)) {
          // A named string type: %#v (quoted) up to 1.33, json.Marshal from 1.34.
          const value = style === 'json' ? goJsonMarshalString(token.cacheType) : goQuote(token.cacheType);
          errors.push({ type: 'NotSupported', field: `${path}.cacheType`, value, detail: supportedValues(CACHE_TYPES) });
        }
      }
    }
  }
  return errors;
}

/**
 * Whether kubelet's text for these errors is certain: <=1.32 lists the supported exec API
 * versions of a NotSupported error in Go map order, so with two or more values any order can
 * be printed (the verdict is certain, the text is not).
 */
export function validationTextIsExact(errors: readonly FieldError[], traits: KubeletTraits): boolean {
  if (traits.supportedValuesSorted || traits.execApiVersions.length < 2) return true;
  return !errors.some((e) => e.type === 'NotSupported' && e.field === 'providers.apiVersion');
}

function supportedValues(values: readonly string[]): string {
  return `supported values: ${values.map((v) => goQuote(v)).join(', ')}`;
}

/** validateServiceAccountAnnotationKeys: IsQualifiedName on the lower-cased key, then duplicates. */
function annotationKeyErrors(field: string, keys: readonly string[], traits: KubeletTraits): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    for (const message of qualifiedNameErrors(key.toLowerCase(), traits.qualifiedNameWording)) {
      errors.push({ type: 'Invalid', field, value: goQuote(key), detail: message });
    }
    if (seen.has(key)) errors.push({ type: 'Duplicate', field, value: goQuote(key), detail: '' });
    seen.add(key);
  }
  return errors;
}

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/**
 * apimachinery validation.IsQualifiedName. From apimachinery v0.35.0 (kubelet 1.35) it is
 * content.IsLabelKey: "bytes" instead of "characters", "a valid label key" instead of "a
 * qualified name" (tags v0.34.0 and v0.35.0 read).
 */
export function qualifiedNameErrors(value: string, wording: KubeletTraits['qualifiedNameWording']): string[] {
  const newWording = wording === 'label-key';
  const maxLen = (n: number) => `must be no more than ${n} ${newWording ? 'bytes' : 'characters'}`;
  const errors: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix === '') errors.push('prefix part must be non-empty');
    else {
      if (Buffer.byteLength(prefix) > 253) errors.push(`prefix part ${maxLen(253)}`);
      if (!DNS1123_SUBDOMAIN_RE.test(prefix)) errors.push(`prefix part ${regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com')}`);
    }
  } else {
    return [`${newWording ? 'a valid label key' : 'a qualified name'} ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name === '') errors.push('name part must be non-empty');
  else if (Buffer.byteLength(name) > 63) errors.push(`name part ${maxLen(63)}`);
  if (!QUALIFIED_NAME_RE.test(name)) errors.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errors;
}

/** validation.RegexError, including its double space after each example's comma. */
function regexError(message: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${format}')`;
  return `${message} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${format}')`;
}

const TYPE_TEXT: Record<FieldError['type'], string> = {
  Required: 'Required value',
  Invalid: 'Invalid value',
  NotSupported: 'Unsupported value',
  Duplicate: 'Duplicate value',
  Forbidden: 'Forbidden',
};

/** field.Error.Error(): "<field>: <type>[: <value>][: <detail>]". */
export function formatFieldError(error: FieldError): string {
  let body = TYPE_TEXT[error.type];
  if (error.type !== 'Required' && error.type !== 'Forbidden') body += `: ${error.value ?? 'null'}`;
  if (error.detail !== '') body += `: ${error.detail}`;
  return `${error.field}: ${body}`;
}

/**
 * The text kubelet logs for these errors: "failed to validate credential provider config: " and
 * the aggregate (identical messages once; one message bare, several as "[a, b]").
 * Returns "" for no errors (kubelet then does not fail).
 */
export function formatValidationErrors(errors: readonly FieldError[], _traits: KubeletTraits): string {
  if (errors.length === 0) return '';
  return `failed to validate credential provider config: ${aggregateError(errors.map(formatFieldError))}`;
}

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
