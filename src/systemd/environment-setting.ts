/**
 * The value of one non-empty `Environment=` line (src/core/load-fragment.c `config_parse_environ`,
 * same in v239 and v252): words split like a command line with quotes and C escapes, each word
 * specifier-expanded and kept if it is a valid NAME=value. A syntax error drops the rest of the line;
 * a word with a specifier systemd does not know is dropped ("Failed to resolve unit specifiers").
 */
import type { SourceLocation, UnitDiagnostic } from '../model/service.js';
import { splitEnvAssignment } from './env-names.js';
import { extractFirstWord } from './extract-word.js';
import { expandSpecifiers, UNKNOWN_SPECIFIER_ERROR } from './specifiers.js';
import type { UnitName } from './unit-name.js';

export interface EnvironmentSetting {
  /** In order; a later assignment of the same name wins. */
  readonly assignments: readonly { readonly name: string; readonly value: string }[];
  readonly diagnostics: readonly UnitDiagnostic[];
}

export function parseEnvironmentValue(rvalue: string, source: SourceLocation, unit: UnitName, systemdVersion?: number): EnvironmentSetting {
  const assignments: { name: string; value: string }[] = [];
  const diagnostics: UnitDiagnostic[] = [];
  const at = `${source.file}:${source.line}`;
  let next: number | undefined = 0;
  for (;;) {
    const r = extractFirstWord(rvalue, next, { unquote: true, cunescape: true });
    if (r.kind === 'end') break;
    if (r.kind === 'invalid') {
      diagnostics.push({ severity: 'warning', ...source, message: `${at}: Invalid syntax, ignoring: ${rvalue}` });
      break;
    }
    next = r.next;
    const expanded = expandSpecifiers(r.word, unit, systemdVersion);
    if (expanded.invalid.length > 0) {
      diagnostics.push({ severity: 'warning', ...source, message: `${at}: Failed to resolve unit specifiers in ${r.word}, ignoring: ${UNKNOWN_SPECIFIER_ERROR}` });
      continue;
    }
    if (expanded.unsure.length > 0) {
      diagnostics.push({ severity: 'fatal', ...source, message: `${at}: whether this systemd knows the specifier ${expanded.unsure.join(' ')} is not known: if not, it drops ${r.word} from Environment=` });
    }
    if (expanded.unresolved.length > 0) {
      diagnostics.push({ severity: 'warning', ...source, message: `${at}: specifier ${expanded.unresolved.join(' ')} in Environment= is not resolved by node-check; kept as written` });
    }
    const assignment = splitEnvAssignment(expanded.text);
    if (!assignment) {
      diagnostics.push({ severity: 'warning', ...source, message: `${at}: Invalid environment assignment, ignoring: ${expanded.text}` });
      continue;
    }
    assignments.push(assignment);
  }
  return { assignments, diagnostics };
}
