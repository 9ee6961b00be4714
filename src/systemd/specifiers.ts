/**
 * Unit specifiers ("%n", "%i", …) as systemd resolves them when it loads a unit (src/shared/specifier.c,
 * src/core/unit-printf.c). Only the common name-derived ones and %t are resolved here; any other
 * "%X" is kept as written and reported, because its value depends on the running host (%H, %m,
 * %b…) or systemd rejects it (an unknown letter makes systemd ≥ v246-ish refuse the setting;
 * exact version not verified).
 */
import { unescapeUnitNamePart, type UnitName } from './unit-name.js';

export interface SpecifierExpansion {
  readonly text: string;
  /** Specifiers left as written, e.g. ["%H"]. */
  readonly unresolved: readonly string[];
}

export function expandSpecifiers(text: string, unit: UnitName): SpecifierExpansion {
  if (!text.includes('%')) return { text, unresolved: [] };
  const unresolved: string[] = [];
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
    const value = resolve(spec, unit);
    if (value !== undefined) {
      out += value;
    } else {
      out += '%' + spec;
      if (/[0-9A-Za-z]/.test(spec)) unresolved.push('%' + spec);
    }
  }
  return { text: out, unresolved };
}

function resolve(spec: string, unit: UnitName): string | undefined {
  switch (spec) {
    case '%':
      return '%';
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
