/**
 * sigs.k8s.io/json's decoding into a Go struct, as apimachinery's JSON serializer runs it
 * (UnmarshalCaseSensitivePreserveInts, or UnmarshalStrict in strict mode):
 *
 * - object keys match json tag names exactly (case-sensitive); unknown keys are skipped, or in
 *   strict mode reported as `unknown field "providers[0].foo"`; a repeated key is decoded again
 *   over the earlier value (structs merge, slices reuse their elements) and in strict mode
 *   reported as `duplicate field "…"`. Strict errors are deduplicated and capped at 100;
 * - a value of the wrong JSON type is a json.UnmarshalTypeError ("json: cannot unmarshal number
 *   into Go struct field CredentialProvider.providers.name of type string"); decoding goes on and
 *   the first such error is returned at the end, ahead of any strict error;
 * - a json.Unmarshaler (metav1.Duration) that fails stops decoding at once, and its error wins.
 *
 * Source: kubernetes-sigs/json internal/golang/encoding/json decode.go and kubernetes_patch.go
 * (the version vendored by kubelet 1.32+, whose strict errors carry paths).
 */
import { parseGoDuration } from '../go/duration.js';
import type { GoJson } from '../go/json.js';
import { goQuote } from '../go/quote.js';
import { oncePerInput } from '../lib/memo.js';

/** The Go types node-check needs to model. */
export type GoType =
  | { readonly kind: 'string'; readonly name: string } // "string" or a named string type
  | { readonly kind: 'bool' }
  | { readonly kind: 'ptr'; readonly elem: GoType }
  | { readonly kind: 'slice'; readonly elem: GoType }
  | { readonly kind: 'struct'; readonly pkg: string; readonly name: string; readonly fields: readonly GoField[] }
  | { readonly kind: 'duration' } // metav1.Duration: a json.Unmarshaler over a JSON string
  | { readonly kind: 'int'; readonly name: string; readonly bits: 32 | 64 } // int32/int64 (or a named one)
  | { readonly kind: 'float'; readonly name: string } // float64
  | { readonly kind: 'map'; readonly elem: GoType } // map[string]T
  | { readonly kind: 'opaque'; readonly name: string; readonly json: 'object' | 'array' | 'string' } // a type from another package: only its JSON kind is checked
  | { readonly kind: 'unmodelled' }; // a Go type node-check does not model: accepts anything

export interface GoField {
  readonly json: string;
  readonly type: GoType;
}

/** A decoded Go value. Structs are keyed by json name; absent fields hold their zero value. */
export type GoValue =
  | string
  | boolean
  | number
  | null // a nil pointer or slice
  | { readonly duration: bigint }
  | GoValue[]
  | { [field: string]: GoValue };

export interface TypedDecodeResult {
  readonly value: GoValue;
  /** The error decoding returns (type mismatch or a failing UnmarshalJSON); strict errors are not errors here. */
  readonly error?: string;
  /** Strict-mode complaints, in order, as `unknown field "…"` / `duplicate field "…"`. */
  readonly strictErrors: readonly string[];
  /** Paths of keys a non-strict decode skipped, e.g. "providers[0].tokenAttributes". */
  readonly unknownFields: readonly string[];
  /** Paths of keys given more than once. */
  readonly duplicateFields: readonly string[];
}

export function typeString(t: GoType): string {
  switch (t.kind) {
    case 'string': return t.name;
    case 'bool': return 'bool';
    case 'ptr': return `*${typeString(t.elem)}`;
    case 'slice': return `[]${typeString(t.elem)}`;
    case 'struct': return `${t.pkg}.${t.name}`;
    case 'duration': return 'v1.Duration';
    case 'int': return t.name;
    case 'float': return t.name;
    case 'map': return `map[string]${typeString(t.elem)}`;
    case 'opaque': return t.name;
    case 'unmodelled': return 'interface {}';
  }
}

const MAX_STRICT_ERRORS = 100;

class Abort {
  constructor(readonly message: string) {}
}

export function decodeInto(json: GoJson, type: GoType, strict: boolean): TypedDecodeResult {
  const state = new DecodeState(strict);
  let value: GoValue;
  try {
    value = state.decode(json, type, undefined);
  } catch (e) {
    if (!(e instanceof Abort)) throw e;
    return { value: null, error: e.message, strictErrors: [], unknownFields: state.unknown, duplicateFields: state.duplicates };
  }
  return {
    value,
    ...(state.savedError !== undefined ? { error: state.savedError } : {}),
    strictErrors: state.strictErrors,
    unknownFields: state.unknown,
    duplicateFields: state.duplicates,
  };
}

class DecodeState {
  savedError: string | undefined;
  readonly strictErrors: string[] = [];
  private readonly seenStrict = new Set<string>();
  readonly unknown: string[] = [];
  readonly duplicates: string[] = [];
  /** errorContext: the innermost struct being decoded and the json names down to the field. */
  private structName: string | undefined;
  private readonly fieldStack: string[] = [];
  /** The strict field path so far: "providers[0]". */
  private path = '';

  /** A config commonly gives every provider the same defaultCacheDuration (pure: see src/lib/memo.ts). */
  private readonly parseDuration = oncePerInput(parseGoDuration);

  constructor(private readonly strict: boolean) {}

  decode(json: GoJson, type: GoType, current: GoValue | undefined): GoValue {
    switch (type.kind) {
      case 'unmodelled':
        return null;
      case 'ptr':
        // null sets a pointer to nil; anything else decodes into the pointee (allocated if nil).
        if (json.kind === 'null') return null;
        return this.decode(json, type.elem, current ?? undefined);
      case 'duration':
        return this.duration(json);
      case 'string':
        if (json.kind === 'string') return json.value;
        if (json.kind !== 'null') this.typeError(json.kind, type);
        return current ?? '';
      case 'bool':
        if (json.kind === 'bool') return json.value;
        if (json.kind !== 'null') this.typeError(json.kind, type);
        return current ?? false;
      case 'slice':
        if (json.kind === 'null') return null;
        if (json.kind !== 'array') {
          this.typeError(json.kind, type);
          return current ?? null;
        }
        return this.slice(json.items, type.elem, Array.isArray(current) ? current : []);
      case 'struct':
        if (json.kind === 'object') return this.struct(json, type, isStruct(current) ? current : {});
        if (json.kind !== 'null') this.typeError(json.kind, type);
        return current ?? {};
      case 'int': {
        if (json.kind === 'null') return current ?? 0;
        if (json.kind !== 'number') {
          this.typeError(json.kind, type);
          return current ?? 0;
        }
        // strconv.ParseInt(literal, 10, 64), then the overflow check of the kind.
        const limit = 1n << BigInt(type.bits - 1);
        if (!/^-?\d+$/.test(json.text) || BigInt(json.text) >= limit || BigInt(json.text) < -limit) {
          this.typeError(`number ${json.text}`, type);
          return current ?? 0;
        }
        return Number(json.text);
      }
      case 'float':
        if (json.kind === 'null') return current ?? 0;
        if (json.kind !== 'number') {
          this.typeError(json.kind, type);
          return current ?? 0;
        }
        return Number(json.text);
      case 'map': {
        if (json.kind === 'null') return null;
        if (json.kind !== 'object') {
          this.typeError(json.kind, type);
          return current ?? null;
        }
        // Go decodes into the existing map (keys are added); map keys do not join the error context.
        const out: { [key: string]: GoValue } = isStruct(current) ? current : {};
        const base = this.path;
        for (const { key, value } of json.members) {
          this.path = `${base}[${key}]`;
          out[key] = this.decode(value, type.elem, out[key]);
        }
        this.path = base;
        return out;
      }
      case 'opaque':
        if (json.kind === 'null') return current ?? null;
        if (json.kind !== type.json) {
          this.typeError(json.kind, type);
          return current ?? null;
        }
        return plainValue(json);
    }
  }

  private slice(items: readonly GoJson[], elem: GoType, existing: GoValue[]): GoValue[] {
    // Go reslices to the new length and decodes into the elements already there.
    const out: GoValue[] = [];
    const base = this.path;
    items.forEach((item, i) => {
      this.path = `${base}[${i}]`;
      out.push(this.decode(item, elem, existing[i]));
    });
    this.path = base;
    return out;
  }

  private struct(json: Extract<GoJson, { kind: 'object' }>, type: Extract<GoType, { kind: 'struct' }>, target: { [field: string]: GoValue }): GoValue {
    const seen = new Set<string>();
    const base = this.path;
    for (const { key, value } of json.members) {
      const field = fieldsByJsonName(type).get(key);
      const fieldPath = base === '' ? key : `${base}.${key}`;
      if (!field) {
        if (this.strict) this.strictError('unknown field', fieldPath);
        this.unknown.push(fieldPath);
        continue;
      }
      if (seen.has(key)) {
        if (this.strict) this.strictError('duplicate field', fieldPath);
        this.duplicates.push(fieldPath);
      }
      seen.add(key);
      const savedStruct = this.structName;
      this.structName = type.name;
      this.fieldStack.push(field.json);
      this.path = fieldPath;
      target[field.json] = this.decode(value, field.type, target[field.json]);
      this.path = base;
      this.fieldStack.pop();
      this.structName = savedStruct;
    }
    return target;
  }

  /** metav1.Duration.UnmarshalJSON: json.Unmarshal into a string, then time.ParseDuration. */
  private duration(json: GoJson): GoValue {
    if (json.kind === 'string') {
      const parsed = this.parseDuration(json.value);
      if (typeof parsed === 'string') throw new Abort(parsed);
      return { duration: parsed };
    }
    // The inner json.Unmarshal fails without context; the outer decoder's addErrorContext then
    // fills in the struct and field it was decoding (UnmarshalTypeError is shared with encoding/json).
    throw new Abort(this.typeErrorText(json.kind, 'string'));
  }

  private typeError(word: string, type: GoType): void {
    this.savedError ??= this.typeErrorText(word, typeString(type));
  }

  private typeErrorText(word: string, typeName: string): string {
    if (this.structName !== undefined || this.fieldStack.length > 0) {
      return `json: cannot unmarshal ${word} into Go struct field ${this.structName ?? ''}.${this.fieldStack.join('.')} of type ${typeName}`;
    }
    return `json: cannot unmarshal ${word} into Go value of type ${typeName}`;
  }

  private strictError(kind: 'unknown field' | 'duplicate field', path: string): void {
    const key = `${kind} ${path}`;
    if (this.strictErrors.length >= MAX_STRICT_ERRORS || this.seenStrict.has(key)) return;
    this.seenStrict.add(key);
    this.strictErrors.push(`${kind} ${goQuote(path)}`); // strictError.Error() uses strconv.Quote
  }
}

/** Any JSON value as a GoValue (numbers as JS numbers), for types node-check does not model. */
function plainValue(json: GoJson): GoValue {
  switch (json.kind) {
    case 'null': return null;
    case 'bool': return json.value;
    case 'number': return Number(json.text);
    case 'string': return json.value;
    case 'array': return json.items.map(plainValue);
    case 'object': {
      const out: { [key: string]: GoValue } = {};
      for (const { key, value } of json.members) out[key] = plainValue(value);
      return out;
    }
  }
}

function isStruct(v: GoValue | undefined): v is { [field: string]: GoValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !('duration' in v && typeof v.duration === 'bigint');
}

/**
 * A struct's fields by exact json name (sigs.k8s.io/json matches case-sensitively), the first of
 * a name as a linear search found it: `check` decodes one config against thirteen minors' types,
 * ~60 keys each against ~100 fields (start-path cost).
 */
const fieldIndexes = new WeakMap<GoType, ReadonlyMap<string, GoField>>();

function fieldsByJsonName(type: Extract<GoType, { kind: 'struct' }>): ReadonlyMap<string, GoField> {
  let index = fieldIndexes.get(type);
  if (index === undefined) {
    const byName = new Map<string, GoField>();
    for (const field of type.fields) if (!byName.has(field.json)) byName.set(field.json, field);
    index = byName;
    fieldIndexes.set(type, index);
  }
  return index;
}
