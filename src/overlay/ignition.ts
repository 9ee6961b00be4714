/**
 * Reads what an upgrade is about to write: a MachineConfig (YAML or JSON, `spec.config` = an
 * Ignition config) or a bare Ignition config (JSON, spec 3.0-3.4, as the machine-config server
 * serves it to RHEL workers), and turns it into plain data: the layer entries the machine-config
 * daemon (MCD) would write. Pure: bytes in, data out; nothing is fetched, nothing is written.
 *
 * How entries are written follows the MCD (openshift/machine-config-operator pkg/daemon/update.go
 * writeFiles/writeUnits), which is what writes a new rendered config onto an existing node:
 * - storage.files: the decoded `contents.source` (data: URL, URL-encoded or base64, optional
 *   `compression: gzip`), mode default 0644; `append` parts are added after (Ignition semantics);
 *   `overwrite` is recorded but the MCD writes the file either way.
 * - storage.directories (default 0755) and storage.links (target stored as given).
 * - systemd.units: `contents` -> /etc/systemd/system/NAME; each drop-in with contents ->
 *   /etc/systemd/system/NAME.d/DROPIN; a drop-in without contents is removed (the MCD deletes
 *   empty drop-ins); `mask: true` -> /etc/systemd/system/NAME is a symlink to /dev/null;
 *   `mask: false` without contents removes /etc/systemd/system/NAME (openshift/machine-config-operator
 *   pkg/daemon/file_writers.go writeUnit, read in a copy not pinned to a branch). The MCD refuses `append` ("Append is not
 *   supported"): such a config is laid with Ignition's semantics but answers "cannot tell".
 *
 * A remote source (http, https, s3, tftp, gs, …) is never fetched: the entry's contents are
 * `{ remote }` and node-check cannot tell what it holds. Content that cannot be decoded (bad
 * base64, bad gzip, a charset node-check does not know, too large) is `{ invalid }`. Structural
 * problems (not a MachineConfig, no spec.config, unsupported version, bad or duplicate paths,
 * unit names with "/", YAML bombs, oversized input) make the whole file unusable: OverlayInputError.
 */
import { gunzipSync } from 'node:zlib';
import { posix } from 'node:path';
import { yamlPackage } from '../host/yaml-package.js';

/** Largest input file node-check reads (a rendered worker MachineConfig is a few hundred KiB). */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;
/** Largest decoded file (after gzip) kept in memory; larger is "cannot tell". */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
/**
 * Decoded contents of all configs of one check together (each file alone is capped by
 * MAX_FILE_BYTES, so many small gzip bombs would otherwise add up to gigabytes). A rendered
 * worker config decodes to a few MiB; past this the config is unusable and the answer "cannot tell".
 */
export const MAX_TOTAL_DECODED_BYTES = 64 * 1024 * 1024;

/** What is left of MAX_TOTAL_DECODED_BYTES; one per check, shared by the readMachineConfig calls of its configs. */
export class DecodedBytesBudget {
  remaining = MAX_TOTAL_DECODED_BYTES;
  /** Set once a config went past it: later configs are not decoded either. */
  exceeded = false;
}

/** Thrown inside the reader when the shared budget is spent; readMachineConfig turns it into an OverlayInputError. */
class DecodedBytesExceeded extends Error {}

const TOTAL_DECODED_PROBLEM = `the files of the configurations decode to more than ${MAX_TOTAL_DECODED_BYTES} bytes together (node-check's cap on decoded contents per check); node-check stops decoding and cannot tell what this configuration writes`;
/** Bounds on the parsed document (YAML bombs, pathological nesting). */
const MAX_ALIASES = 100;
const MAX_DEPTH = 64;
const MAX_NODES = 1_000_000;
const MAX_ENTRIES = 100_000;

export const MACHINE_CONFIG_API_VERSION = 'machineconfiguration.openshift.io/v1';
const SUPPORTED_IGNITION = /^3\.[0-4]\.\d+(-experimental)?$/;

/** Bytes, a source node-check will not fetch, or content it could not decode (with why). */
export type EntryContents = Buffer | { readonly remote: string } | { readonly invalid: string };

export type LayerEntry =
  | {
      readonly path: string;
      readonly kind: 'file';
      readonly mode: number;
      readonly contents: EntryContents;
      /** Ignition `overwrite`; the MCD writes the file whatever it says. */
      readonly overwrite: boolean;
      /** Ignition `append` parts, written after `contents` (or after the existing file when contents is absent). */
      readonly append: readonly EntryContents[];
      /** Whether `contents` was given (append without contents extends the existing file). */
      readonly hasContents: boolean;
      readonly uid?: number;
      readonly gid?: number;
    }
  | { readonly path: string; readonly kind: 'dir'; readonly mode: number; readonly overwrite: boolean; readonly uid?: number; readonly gid?: number }
  | { readonly path: string; readonly kind: 'link'; readonly target: string; readonly hard: boolean; readonly overwrite: boolean }
  | { readonly path: string; readonly kind: 'masked-unit'; readonly target: '/dev/null' }
  /** The MCD removes a drop-in whose contents are empty. */
  | { readonly path: string; readonly kind: 'absent' };

export type LayerKind = 'machine-config' | 'ignition' | 'directory';

export interface Layer {
  /** metadata.name of a MachineConfig, else the file (or directory) name. */
  readonly name: string;
  readonly kind: LayerKind;
  /** The file or directory it was read from ("-" for stdin). */
  readonly origin: string;
  readonly entries: readonly LayerEntry[];
  /** Things in the config node-check does not model; `decides`: the answer cannot rest on this config (a remote config merge). */
  readonly unmodelled: readonly { readonly message: string; readonly decides: boolean }[];
}

export class OverlayInputError extends Error {
  constructor(readonly origin: string, detail: string) {
    super(`${origin}: ${detail}`);
  }
}

/** Reads a MachineConfig or a bare Ignition config. Throws OverlayInputError (never anything else). */
export function readMachineConfig(data: Buffer, origin: string, budget: DecodedBytesBudget = new DecodedBytesBudget()): Layer {
  if (budget.exceeded) throw new OverlayInputError(origin, TOTAL_DECODED_PROBLEM);
  try {
    return readUnchecked(data, origin, budget);
  } catch (error) {
    if (error instanceof OverlayInputError) throw error;
    if (error instanceof DecodedBytesExceeded) {
      budget.exceeded = true;
      throw new OverlayInputError(origin, TOTAL_DECODED_PROBLEM);
    }
    // A RangeError from a pathological input, or a bug: still a clear error naming the file.
    throw new OverlayInputError(origin, `cannot read: ${(error as Error)?.message ?? String(error)}`);
  }
}

function readUnchecked(data: Buffer, origin: string, budget: DecodedBytesBudget): Layer {
  const fail = (detail: string): never => {
    throw new OverlayInputError(origin, detail);
  };
  if (data.length > MAX_INPUT_BYTES) fail(`larger than ${MAX_INPUT_BYTES} bytes; not read`);
  const text = data.toString('utf8');
  const document = parseStructured(text, origin);
  if (!isObject(document)) fail('expected a MachineConfig or an Ignition config (a mapping), found ' + describe(document));
  const doc = document as Record<string, unknown>;

  if ('kind' in doc || 'apiVersion' in doc) {
    if (doc['kind'] !== 'MachineConfig') fail(`kind is ${JSON.stringify(doc['kind'])}, expected "MachineConfig" (a List or another object is not a machine config; use \`oc get mc NAME -o yaml\`)`);
    if (doc['apiVersion'] !== MACHINE_CONFIG_API_VERSION) fail(`apiVersion is ${JSON.stringify(doc['apiVersion'])}, expected "${MACHINE_CONFIG_API_VERSION}"`);
    const metadata = isObject(doc['metadata']) ? (doc['metadata'] as Record<string, unknown>) : {};
    const name = typeof metadata['name'] === 'string' && metadata['name'] !== '' ? metadata['name'] : posix.basename(origin);
    const spec = doc['spec'];
    if (!isObject(spec)) fail('MachineConfig has no spec');
    const config = (spec as Record<string, unknown>)['config'];
    if (config === undefined || config === null) fail('MachineConfig has no spec.config (the Ignition config it would write)');
    if (!isObject(config)) fail('spec.config is not an Ignition config (a mapping)');
    const unmodelled: { message: string; decides: boolean }[] = [];
    const s = spec as Record<string, unknown>;
    if (typeof s['osImageURL'] === 'string' && s['osImageURL'] !== '') {
      unmodelled.push({ message: 'spec.osImageURL: on RHCOS the OS image, and with it the kubelet binary, changes too; give the target kubelet with --kubelet-version or --openshift-version', decides: false });
    }
    const layer = readIgnition(config as Record<string, unknown>, origin, 'spec.config.', budget);
    return { name, kind: 'machine-config', origin, entries: layer.entries, unmodelled: [...unmodelled, ...layer.unmodelled] };
  }
  if (isObject(doc['ignition'])) {
    const layer = readIgnition(doc, origin, '', budget);
    return { name: posix.basename(origin) || origin, kind: 'ignition', origin, entries: layer.entries, unmodelled: layer.unmodelled };
  }
  return fail('neither a MachineConfig (kind/apiVersion) nor an Ignition config (no "ignition" section)');
}

function parseStructured(text: string, origin: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      return boundedValue(JSON.parse(text), origin);
    } catch (error) {
      if (error instanceof OverlayInputError) throw error;
      throw new OverlayInputError(origin, `not valid JSON: ${(error as Error).message}`);
    }
  }
  // YAML 1.1, as the API server reads a MachineConfig (sigs.k8s.io/yaml over go-yaml): `mode: 0644` is octal 420.
  const doc = yamlPackage().parseDocument(text, { version: '1.1', uniqueKeys: true, prettyErrors: false, merge: false });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const line = first.linePos ? `:${first.linePos[0].line}` : '';
    throw new OverlayInputError(`${origin}${line}`, `not valid YAML: ${first.message.split('\n')[0]}`);
  }
  let value: unknown;
  try {
    // toJS expands aliases; maxAliasCount bounds how often (a "billion laughs" throws here).
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw new OverlayInputError(origin, `refused: ${(error as Error).message.split('\n')[0]}`);
  }
  return boundedValue(value, origin);
}

/** Walks the value iteratively: nesting deeper than MAX_DEPTH or more than MAX_NODES nodes is refused. */
function boundedValue(value: unknown, origin: string): unknown {
  const stack: [unknown, number][] = [[value, 0]];
  let nodes = 0;
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (++nodes > MAX_NODES) throw new OverlayInputError(origin, `refused: more than ${MAX_NODES} values`);
    if (depth > MAX_DEPTH) throw new OverlayInputError(origin, `refused: nested deeper than ${MAX_DEPTH} levels`);
    if (current !== null && typeof current === 'object') {
      for (const child of Object.values(current as Record<string, unknown>)) stack.push([child, depth + 1]);
    }
  }
  return value;
}

function readIgnition(config: Record<string, unknown>, origin: string, at: string, budget: DecodedBytesBudget): { entries: LayerEntry[]; unmodelled: { message: string; decides: boolean }[] } {
  const fail = (detail: string): never => {
    throw new OverlayInputError(origin, detail);
  };
  const ignition = config['ignition'];
  const version = isObject(ignition) ? (ignition as Record<string, unknown>)['version'] : undefined;
  if (version === undefined || version === null) fail(`${at}ignition.version is missing`);
  if (typeof version !== 'string') fail(`${at}ignition.version must be a string like "3.4.0", found ${JSON.stringify(version)}`);
  if (!SUPPORTED_IGNITION.test(version as string)) fail(`Ignition config version ${JSON.stringify(version)} is not supported (3.0.0 to 3.4.0)`);
  const unmodelled: { message: string; decides: boolean }[] = [];
  const igConfig = isObject(ignition) ? (ignition as Record<string, unknown>)['config'] : undefined;
  if (isObject(igConfig)) {
    const c = igConfig as Record<string, unknown>;
    const merge = Array.isArray(c['merge']) ? c['merge'] : [];
    const replace = isObject(c['replace']) && typeof (c['replace'] as Record<string, unknown>)['source'] === 'string' ? [c['replace']] : [];
    if (merge.length + replace.length > 0) unmodelled.push({ message: `${at}ignition.config merges or replaces a remote config; node-check does not fetch it and cannot tell what it writes`, decides: true });
  }

  const entries: LayerEntry[] = [];
  const seen = new Map<string, string>();
  const add = (entry: LayerEntry, where: string) => {
    const previous = seen.get(entry.path);
    if (previous) fail(`duplicate path ${entry.path} (${previous} and ${where}); Ignition rejects such a config`);
    seen.set(entry.path, where);
    if (entries.length >= MAX_ENTRIES) fail(`more than ${MAX_ENTRIES} entries`);
    entries.push(entry);
  };
  const storage = objectAt(config, 'storage', at, fail);
  const systemd = objectAt(config, 'systemd', at, fail);

  arrayAt(storage, 'directories', `${at}storage.`, fail).forEach((raw, i) => {
    const where = `${at}storage.directories[${i}]`;
    const d = asObject(raw, where, fail);
    add({ path: checkedPath(d['path'], where, fail), kind: 'dir', mode: modeOf(d['mode'], 0o755, where, fail), overwrite: d['overwrite'] === true, ...ownerOf(d) }, where);
  });
  arrayAt(storage, 'files', `${at}storage.`, fail).forEach((raw, i) => {
    const where = `${at}storage.files[${i}]`;
    const f = asObject(raw, where, fail);
    const path = checkedPath(f['path'], where, fail);
    const contents = isObject(f['contents']) ? (f['contents'] as Record<string, unknown>) : undefined;
    const append = Array.isArray(f['append']) ? f['append'] : [];
    if (append.length > 0) {
      // pkg/daemon/file_writers.go writeFiles: "found an append section when writing files. Append is not supported".
      unmodelled.push({ message: `${where} (${path}) has an append section; the machine-config daemon refuses it ("Append is not supported"), so it would not apply this configuration (Ignition's append is laid over the node here)`, decides: true });
    }
    add(
      {
        path,
        kind: 'file',
        mode: modeOf(f['mode'], 0o644, where, fail),
        contents: decodeResource(contents, `${where}.contents`, budget),
        hasContents: contents !== undefined && typeof contents['source'] === 'string',
        overwrite: f['overwrite'] === true,
        append: append.map((part, j) => decodeResource(isObject(part) ? (part as Record<string, unknown>) : undefined, `${where}.append[${j}]`, budget)),
        ...ownerOf(f),
      },
      where,
    );
  });
  arrayAt(storage, 'links', `${at}storage.`, fail).forEach((raw, i) => {
    const where = `${at}storage.links[${i}]`;
    const l = asObject(raw, where, fail);
    const target = l['target'];
    if (typeof target !== 'string' || target === '' || target.includes('\0')) fail(`${where}.target must be a non-empty path`);
    add({ path: checkedPath(l['path'], where, fail), kind: 'link', target: target as string, hard: l['hard'] === true, overwrite: l['overwrite'] === true }, where);
  });

  const unitNames = new Set<string>();
  arrayAt(systemd, 'units', `${at}systemd.`, fail).forEach((raw, i) => {
    const where = `${at}systemd.units[${i}]`;
    const u = asObject(raw, where, fail);
    const name = checkedUnitName(u['name'], `${where}.name`, fail);
    if (unitNames.has(name)) fail(`duplicate unit ${name} (${where}); Ignition rejects such a config`);
    unitNames.add(name);
    const unitPath = `/etc/systemd/system/${name}`;
    if (u['mask'] === true) {
      add({ path: unitPath, kind: 'masked-unit', target: '/dev/null' }, where);
    } else if (typeof u['contents'] === 'string' && u['contents'] !== '') {
      add({ path: unitPath, kind: 'file', mode: 0o644, contents: charged(Buffer.from(u['contents'], 'utf8'), budget), hasContents: true, overwrite: true, append: [] }, where);
    } else if (u['mask'] === false) {
      // writeUnit: "if mask is explicitly set to false, make sure to remove a previous mask" (RemoveAll of the unit path).
      add({ path: unitPath, kind: 'absent' }, where);
    }
    const dropins = u['dropins'] === undefined || u['dropins'] === null ? [] : u['dropins'];
    if (!Array.isArray(dropins)) fail(`${where}.dropins must be a list`);
    (dropins as unknown[]).forEach((rawDropin, j) => {
      const dwhere = `${where}.dropins[${j}]`;
      const d = asObject(rawDropin, dwhere, fail);
      const dropinName = checkedUnitName(d['name'], `${dwhere}.name`, fail);
      const path = `/etc/systemd/system/${name}.d/${dropinName}`;
      if (typeof d['contents'] === 'string' && d['contents'] !== '') {
        add({ path, kind: 'file', mode: 0o644, contents: charged(Buffer.from(d['contents'], 'utf8'), budget), hasContents: true, overwrite: true, append: [] }, dwhere);
      } else {
        add({ path, kind: 'absent' }, dwhere);
      }
    });
  });
  return { entries, unmodelled };
}

/** Bytes the layer keeps, taken from the check's budget; past it the whole check stops decoding. */
function charged(data: Buffer, budget: DecodedBytesBudget): Buffer {
  budget.remaining -= data.length;
  if (budget.remaining < 0) throw new DecodedBytesExceeded();
  return data;
}

/** An Ignition resource ({source, compression}): decoded bytes, or why node-check cannot tell. */
export function decodeResource(resource: Record<string, unknown> | undefined, where: string, budget: DecodedBytesBudget = new DecodedBytesBudget()): EntryContents {
  const source = resource?.['source'];
  if (source === undefined || source === null) return Buffer.alloc(0);
  if (typeof source !== 'string') return { invalid: `${where}.source is not a string` };
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(source)?.[1]?.toLowerCase();
  if (scheme !== 'data') {
    return { remote: redactUrl(source) };
  }
  const decoded = decodeDataUrl(source);
  if ('invalid' in decoded) return { invalid: `${where}: ${decoded.invalid}` };
  const compression = resource?.['compression'];
  if (compression === undefined || compression === null || compression === '') {
    return decoded.data.length > MAX_FILE_BYTES ? { invalid: `${where}: larger than ${MAX_FILE_BYTES} bytes` } : charged(decoded.data, budget);
  }
  if (compression !== 'gzip') return { invalid: `${where}: compression ${JSON.stringify(compression)} is not supported (only gzip)` };
  // Never inflate past what the budget has left: a bomb stops at the smaller bound.
  const limit = Math.min(MAX_FILE_BYTES, budget.remaining);
  try {
    return charged(gunzipSync(decoded.data, { maxOutputLength: Math.max(limit, 1) }), budget);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      if (limit < MAX_FILE_BYTES) throw new DecodedBytesExceeded();
      return { invalid: `${where}: gzip data decompresses to more than ${MAX_FILE_BYTES} bytes` };
    }
    if (error instanceof DecodedBytesExceeded) throw error;
    return { invalid: `${where}: not valid gzip data (${(error as Error).message})` };
  }
}

const KNOWN_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

/**
 * RFC 2397 data URL: data:[<mediatype>][;param=value]*[;base64],<data>. Percent escapes are
 * decoded ("+" stays "+"), then base64 when flagged (standard alphabet, padded). A charset other
 * than UTF-8/US-ASCII is refused: node-check cannot tell which bytes the writer meant.
 */
export function decodeDataUrl(url: string): { data: Buffer } | { invalid: string } {
  const comma = url.indexOf(',');
  if (!url.toLowerCase().startsWith('data:') || comma < 0) return { invalid: 'not a data URL (no ",")' };
  const meta = url.slice(5, comma).split(';');
  let base64 = false;
  for (const [i, part] of meta.entries()) {
    if (i === 0 && !part.includes('=')) {
      if (part !== '' && !/^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/.test(part)) return { invalid: `bad media type ${JSON.stringify(part)}` };
      continue;
    }
    if (i === meta.length - 1 && part.toLowerCase() === 'base64') {
      base64 = true;
      continue;
    }
    const eq = part.indexOf('=');
    if (eq <= 0) return { invalid: `bad data URL parameter ${JSON.stringify(part)}` };
    const key = part.slice(0, eq).toLowerCase();
    let value = part.slice(eq + 1);
    try {
      value = decodeURIComponent(value).replace(/^"(.*)"$/, '$1');
    } catch {
      return { invalid: `bad data URL parameter ${JSON.stringify(part)}` };
    }
    if (key === 'charset' && !KNOWN_CHARSETS.has(value.toLowerCase())) {
      return { invalid: `data URL charset ${JSON.stringify(value)}: node-check cannot tell what bytes it stands for (use UTF-8)` };
    }
  }
  const unescaped = percentDecode(url.slice(comma + 1));
  if (!unescaped) return { invalid: 'bad percent escape in data URL' };
  if (!base64) return { data: unescaped };
  if (!isPaddedBase64(unescaped)) return { invalid: 'invalid base64 in data URL' };
  return { data: Buffer.from(unescaped.toString('latin1'), 'base64') };
}

/** Standard alphabet, length a multiple of 4, "=" only as the last one or two; a loop (a regular expression over megabytes overflows the stack). */
function isPaddedBase64(bytes: Buffer): boolean {
  if (bytes.length % 4 !== 0) return false;
  const padding = bytes.length === 0 ? 0 : bytes[bytes.length - 1] !== 0x3d ? 0 : bytes[bytes.length - 2] === 0x3d ? 2 : 1;
  const end = bytes.length - padding;
  for (let i = 0; i < end; i++) {
    const b = bytes[i]!;
    const alphabet = (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || b === 0x2b || b === 0x2f;
    if (!alphabet) return false;
  }
  return true;
}

/** Percent escapes decoded in one pass into one buffer; undefined for a bad escape. */
function percentDecode(text: string): Buffer | undefined {
  const raw = Buffer.from(text, 'utf8');
  if (!raw.includes(0x25)) return raw;
  const out = Buffer.allocUnsafe(raw.length);
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i]!;
    if (b !== 0x25) {
      out[n++] = b;
      continue;
    }
    const high = hexValue(raw[i + 1]);
    const low = hexValue(raw[i + 2]);
    if (high < 0 || low < 0) return undefined;
    out[n++] = high * 16 + low;
    i += 2;
  }
  return out.subarray(0, n);
}

function hexValue(b: number | undefined): number {
  if (b === undefined) return -1;
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x41 && b <= 0x46) return b - 0x37;
  if (b >= 0x61 && b <= 0x66) return b - 0x57;
  return -1;
}

/** A URL without its query and credentials (pre-signed URLs carry secrets in both). */
function redactUrl(source: string): string {
  try {
    const url = new URL(source);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return source.replace(/[?#].*$/s, '').slice(0, 200);
  }
}

function checkedPath(value: unknown, where: string, fail: (d: string) => never): string {
  if (typeof value !== 'string' || value === '') return fail(`${where}.path is missing`);
  if (value.includes('\0')) return fail(`${where}.path contains NUL`);
  if (!value.startsWith('/')) return fail(`${where}.path ${JSON.stringify(value)} is not absolute`);
  const parts = value.split('/').slice(1);
  if (parts.some((p) => p === '..' || p === '.')) return fail(`${where}.path ${JSON.stringify(value)} contains "." or ".."`);
  if (value === '/' || parts.some((p) => p === '')) return fail(`${where}.path ${JSON.stringify(value)} is not a clean path to an entry under /`);
  if (value.length > 4096 || parts.some((p) => Buffer.byteLength(p) > 255)) return fail(`${where}.path is too long`);
  return value;
}

function checkedUnitName(value: unknown, where: string, fail: (d: string) => never): string {
  if (typeof value !== 'string' || value === '') return fail(`${where} is missing`);
  if (value.includes('/') || value.includes('\0') || value === '.' || value === '..') return fail(`${where} ${JSON.stringify(value)} is not a unit file name (it must not contain "/")`);
  if (Buffer.byteLength(value) > 255) return fail(`${where} is too long`);
  return value;
}

function modeOf(value: unknown, fallback: number, where: string, fail: (d: string) => never): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0o7777) return fail(`${where}.mode must be an integer 0-4095 (decimal of the octal mode)`);
  return value;
}

function ownerOf(entry: Record<string, unknown>): { uid?: number; gid?: number } {
  const id = (v: unknown) => (isObject(v) && Number.isInteger((v as Record<string, unknown>)['id']) ? ((v as Record<string, unknown>)['id'] as number) : undefined);
  const uid = id(entry['user']);
  const gid = id(entry['group']);
  return { ...(uid !== undefined ? { uid } : {}), ...(gid !== undefined ? { gid } : {}) };
}

function objectAt(parent: Record<string, unknown>, key: string, at: string, fail: (d: string) => never): Record<string, unknown> {
  const value = parent[key];
  if (value === undefined || value === null) return {};
  if (!isObject(value)) return fail(`${at}${key} must be a mapping`);
  return value as Record<string, unknown>;
}

function arrayAt(parent: Record<string, unknown>, key: string, at: string, fail: (d: string) => never): unknown[] {
  const value = parent[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return fail(`${at}${key} must be a list`);
  return value;
}

function asObject(value: unknown, where: string, fail: (d: string) => never): Record<string, unknown> {
  if (!isObject(value)) return fail(`${where} must be a mapping`);
  return value as Record<string, unknown>;
}

function isObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  return value === null || value === undefined ? 'nothing' : Array.isArray(value) ? 'a list' : typeof value;
}
