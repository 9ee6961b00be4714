/**
 * The parts of a unit name that lookup and specifiers need (src/basic/unit-name.c): "foo.service",
 * "foo@bar.service" (an instance of the template "foo@.service").
 */

export interface UnitName {
  /** As given, e.g. "kubelet.service". */
  readonly name: string;
  /** "service". */
  readonly type: string;
  /** The part before "@" or the type suffix, e.g. "kubelet" (%p). */
  readonly prefix: string;
  /** The instance of "foo@bar.service" ("bar", %i); undefined for a plain unit or a template. */
  readonly instance?: string;
  /** "foo@.service" for an instance or a template. */
  readonly template?: string;
}

/** systemd's UNIT_NAME_MAX. */
const UNIT_NAME_MAX = 256;
/** VALID_CHARS plus "@", as unit_name_is_valid accepts. */
const VALID_CHARS = /^[0-9A-Za-z:\-_.\\@]+$/;

/** Undefined when systemd would reject the name. */
export function parseUnitName(name: string): UnitName | undefined {
  if (name.length === 0 || name.length >= UNIT_NAME_MAX || !VALID_CHARS.test(name)) return undefined;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const type = name.slice(dot + 1);
  if (!/^[a-z]+$/.test(type)) return undefined;
  const stem = name.slice(0, dot);
  const at = stem.indexOf('@');
  if (at < 0) return { name, type, prefix: stem };
  if (at === 0 || stem.indexOf('@', at + 1) >= 0) return undefined;
  const prefix = stem.slice(0, at);
  const instance = stem.slice(at + 1);
  const template = `${prefix}@.${type}`;
  return instance === '' ? { name, type, prefix, template } : { name, type, prefix, instance, template };
}

/** unit_name_unescape: "-" is "/", "\xNN" is a byte (%I, %P). */
export function unescapeUnitNamePart(part: string): string {
  return part.replace(/\\x([0-9a-fA-F]{2})|-/g, (whole: string, hex: string | undefined) =>
    hex === undefined ? '/' : String.fromCharCode(Number.parseInt(hex, 16)),
  );
}
