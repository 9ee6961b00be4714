/**
 * Finds the unit file systemd loads for a name (src/basic/unit-file.c `unit_file_build_name_map` +
 * `unit_file_find_fragment`, v252; v239 resolves the same cases): the first search path holding an
 * entry of that name wins. A symlink to a file outside the search paths (or to /dev/null) is a
 * linked unit and the link itself is the fragment; a symlink into the search paths is an alias and
 * the target name is looked up instead (a link to the same name is ignored); an instance falls
 * back to its template. Masking is decided by the caller.
 */
import { posix } from 'node:path';
import type { RootFs } from '../host/root-fs.js';
import { isInSearchPath, UNIT_SEARCH_PATHS } from './unit-search-paths.js';
import { parseUnitName, type UnitName } from './unit-name.js';

export type UnitFileLookup =
  /** `names`: the requested name and any alias targets followed, whose drop-ins also apply. */
  | { readonly kind: 'found'; readonly path: string; readonly names: readonly UnitName[] }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'unreadable'; readonly path: string; readonly code: string }
  /** A FIFO, socket or device where a unit file is looked up, on a systemd whose lookup of it is not known. */
  | { readonly kind: 'cannot-tell'; readonly path: string; readonly why: string };

/** FOLLOW_MAX in unit-file.c. */
const MAX_ALIAS_HOPS = 8;

export function findUnitFile(fs: RootFs, unit: UnitName, systemdVersion?: number): UnitFileLookup {
  const findEntry = (name: string) => findEntryIn(fs, name, systemdVersion);
  const names: UnitName[] = [unit];
  let current = unit;
  for (let hops = 0; hops <= MAX_ALIAS_HOPS; hops++) {
    const entry = findEntry(current.name);
    if (entry.kind === 'alias') {
      const target = parseUnitName(entry.target);
      if (!target || names.some((n) => n.name === target.name)) return { kind: 'not-found' };
      names.push(target);
      current = target;
      continue;
    }
    if (entry.kind === 'found') return { kind: 'found', path: entry.path, names };
    if (entry.kind === 'unreadable' || entry.kind === 'cannot-tell') return entry;
    // Not found under this name: an instance is served by its template's file.
    if (current.instance !== undefined && current.template !== undefined) {
      const template = findEntry(current.template);
      if (template.kind === 'found') return { kind: 'found', path: template.path, names };
      if (template.kind === 'unreadable' || template.kind === 'cannot-tell') return template;
    }
    return { kind: 'not-found' };
  }
  return { kind: 'not-found' };
}

type Entry =
  | { readonly kind: 'found'; readonly path: string }
  | { readonly kind: 'alias'; readonly target: string }
  | { readonly kind: 'unreadable'; readonly path: string; readonly code: string }
  | { readonly kind: 'cannot-tell'; readonly path: string; readonly why: string }
  | { readonly kind: 'none' };

function findEntryIn(fs: RootFs, name: string, systemdVersion: number | undefined): Entry {
  for (const dir of UNIT_SEARCH_PATHS) {
    const candidate = `${dir}/${name}`;
    const st = fs.lstat(candidate);
    if (!st.ok) {
      if (st.code === 'ENOENT' || st.code === 'ENOTDIR') continue;
      return { kind: 'unreadable', path: candidate, code: st.code };
    }
    if (st.type === 'file') return { kind: 'found', path: candidate };
    if (st.type === 'other') {
      // v250+ unit_file_build_name_map takes only DT_REG and DT_LNK entries (src/basic/unit-file.c;
      // systemd-analyze verify 252: a FIFO unit file is "not found"); v239 lists every entry
      // (manager_build_unit_path_cache) and opens it (open_follow), see masked-path.ts.
      if (systemdVersion !== undefined && systemdVersion >= 250) continue;
      if (systemdVersion === 239) return { kind: 'found', path: candidate };
      return { kind: 'cannot-tell', path: candidate, why: `${candidate} is a ${st.special ?? 'special file'}: systemd 250+ skips it, systemd 239 opens it, and whether this systemd${systemdVersion === undefined ? ' (version unknown)' : ` ${systemdVersion}`} does is not known` };
    }
    if (st.type !== 'symlink') continue;
    const raw = fs.readlink(candidate);
    if (raw === undefined) continue;
    const target = posix.resolve(dir, raw);
    if (!isInSearchPath(target)) return { kind: 'found', path: candidate };
    const targetName = posix.basename(target);
    // A link to the same name elsewhere in the search path has no effect ("self-alias").
    if (targetName === name) continue;
    const targetUnit = parseUnitName(targetName);
    const sourceUnit = parseUnitName(name);
    // systemd rejects an alias to another unit type and ignores the link.
    if (!targetUnit || !sourceUnit || targetUnit.type !== sourceUnit.type) continue;
    return { kind: 'alias', target: targetName };
  }
  return { kind: 'none' };
}
