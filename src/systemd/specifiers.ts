/**
 * Unit specifiers ("%n", "%i", …) as systemd resolves them when it loads a unit
 * (src/shared/specifier.c `specifier_printf`, src/core/unit-printf.c `unit_full_printf`, v239 and
 * v252 alike): "%%" is "%", "%" before a letter or digit the table does not have fails the whole
 * word with -EBADSLT ("Invalid slot"), "%" before anything else stays as written.
 *
 * Only the name-derived ones and %t are resolved here; the other letters of the table are kept as
 * written and reported, because their value depends on the running host (%H, %m, %b…). Which
 * letters the table has depends on the systemd version (SPECIFIER_SINCE).
 */
import { unescapeUnitNamePart, type UnitName } from './unit-name.js';

export interface SpecifierExpansion {
  readonly text: string;
  /** Specifiers systemd knows and node-check leaves as written, e.g. ["%H"]. */
  readonly unresolved: readonly string[];
  /** Specifiers this systemd does not know: systemd fails the word ("Invalid slot"). */
  readonly invalid: readonly string[];
  /** Specifiers some systemd versions know and others not, for a version node-check does not know. */
  readonly unsure: readonly string[];
}

/**
 * The first systemd version whose unit_full_printf table has each letter (read from
 * src/core/unit-printf.c and the COMMON_*_SPECIFIERS of src/shared/specifier.h at every tag v239 …
 * v260; RHEL 8's 239 and RHEL 9's 252 branches have the same tables as the upstream tags).
 */
const SPECIFIER_SINCE: Readonly<Record<string, number>> = {
  ...Object.fromEntries([...'CEHIJLNPRSTUVbcfhijmnprstuv'].map((c) => [c, 239])),
  G: 240,
  g: 240,
  l: 246,
  B: 247,
  W: 247,
  a: 247,
  o: 247,
  w: 247,
  A: 249,
  M: 249,
  Y: 251,
  d: 251,
  q: 251,
  y: 251,
  D: 256,
};
/** The versions whose tables were read. */
const OLDEST_READ = 239;
const NEWEST_READ = 260;
/** POSSIBLE_SPECIFIERS in specifier.c: ALPHANUMERICAL "%". */
const POSSIBLE_SPECIFIER = /[0-9A-Za-z]/;

export type SpecifierSupport = 'known' | 'unknown' | 'unsure';

/** Whether systemd `version` (undefined: not known) has a specifier letter. */
export function specifierSupport(letter: string, version: number | undefined): SpecifierSupport {
  const since = SPECIFIER_SINCE[letter];
  const known = version !== undefined && version >= OLDEST_READ && version <= NEWEST_READ;
  if (since === undefined) return known ? 'unknown' : 'unsure';
  if (since <= OLDEST_READ) return 'known';
  if (!known) return 'unsure';
  return version >= since ? 'known' : 'unknown';
}

export function expandSpecifiers(text: string, unit: UnitName, systemdVersion?: number): SpecifierExpansion {
  if (!text.includes('%')) return { text, unresolved: [], invalid: [], unsure: [] };
  const unresolved: string[] = [];
  const invalid: string[] = [];
  const unsure: string[] = [];
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    const spec = text[i + 1];
    if (spec === undefined) {
      // A trailing lone "%" stays.
      out += '%';
      break;
    }
    i++;
    if (spec === '%') {
      out += '%';
      continue;
    }
    if (!POSSIBLE_SPECIFIER.test(spec)) {
      out += '%' + spec;
      continue;
    }
    const support = specifierSupport(spec, systemdVersion);
    if (support === 'unknown') {
      invalid.push('%' + spec);
      out += '%' + spec;
      continue;
    }
    if (support === 'unsure') {
      // Never one node-check resolves (those are in every version's table).
      unsure.push('%' + spec);
      out += '%' + spec;
      continue;
    }
    const value = resolve(spec, unit);
    if (value !== undefined) {
      out += value;
    } else {
      out += '%' + spec;
      unresolved.push('%' + spec);
    }
  }
  return { text: out, unresolved, invalid, unsure };
}

/** systemd's log text for a word with an unknown specifier (strerror(EBADSLT)). */
export const UNKNOWN_SPECIFIER_ERROR = 'Invalid slot';

function resolve(spec: string, unit: UnitName): string | undefined {
  switch (spec) {
    case 'n':
      return unit.name;
    case 'N':
      return unit.name.slice(0, unit.name.length - unit.type.length - 1);
    case 'p':
      return unit.prefix;
    case 'i':
      return unit.instance ?? '';
    case 'I':
      return unescapeUnitNamePart(unit.instance ?? '');
    case 't':
      // The runtime directory of the system manager.
      return '/run';
    default:
      return undefined;
  }
}
