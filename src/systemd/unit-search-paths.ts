/**
 * Where systemd (system manager) looks for unit files and drop-in directories, highest priority
 * first (src/basic/path-lookup.c `lookup_paths_init`, v252; v239 lacks the *.attached dirs).
 * The control, transient and generator directories only have content on a running host.
 * /lib/systemd/system is searched by split-usr builds; on merged-usr hosts it is the same
 * directory as /usr/lib/systemd/system, and searching it twice changes nothing.
 */
import type { UnitName } from './unit-name.js';

export const UNIT_SEARCH_PATHS: readonly string[] = [
  '/etc/systemd/system.control',
  '/run/systemd/system.control',
  '/run/systemd/transient',
  '/run/systemd/generator.early',
  '/etc/systemd/system',
  '/etc/systemd/system.attached',
  '/run/systemd/system',
  '/run/systemd/system.attached',
  '/run/systemd/generator',
  '/usr/local/lib/systemd/system',
  '/usr/lib/systemd/system',
  '/lib/systemd/system',
  '/run/systemd/generator.late',
];

/** True when `path` lies inside one of the search paths (then a symlink there is an alias). */
export function isInSearchPath(path: string): boolean {
  return UNIT_SEARCH_PATHS.some((dir) => path.startsWith(dir + '/'));
}

/**
 * The drop-in directories of a unit in the order systemd collects them (src/shared/dropin.c
 * `unit_file_find_dropin_paths`, v252): for each name, in each search path, "<name>.d", then the
 * template's, then the dash-prefix ones ("foo-bar.service" also reads "foo-.service.d"); finally
 * the type-wide "service.d" (not in upstream v239; RHEL 8's backport of it, in redhat-plumbers/
 * systemd-rhel8 src/shared/dropin.c, puts it first: `typeWideFirst`). When two of them hold a file
 * of the same name, the earlier directory wins.
 */
export function dropInDirectories(names: readonly UnitName[], options: { readonly typeWideFirst?: boolean } = {}): string[] {
  const dirs: string[] = [];
  const add = (dir: string) => {
    if (!dirs.includes(dir)) dirs.push(dir);
  };
  const type = names[0]?.type;
  const addTypeWide = () => {
    if (type !== undefined) for (const searchPath of UNIT_SEARCH_PATHS) add(`${searchPath}/${type}.d`);
  };
  if (options.typeWideFirst) addTypeWide();
  for (const unit of names) for (const searchPath of UNIT_SEARCH_PATHS) for (const name of dropInNames(unit)) add(`${searchPath}/${name}.d`);
  if (!options.typeWideFirst) addTypeWide();
  return dirs;
}

/** The names whose "<name>.d" applies to one unit name, most specific first (unit_file_find_dirs). */
export function dropInNames(unit: UnitName): string[] {
  const names: string[] = [];
  const visit = (name: string, instance: string | undefined, stem: string) => {
    names.push(name);
    if (instance !== undefined) {
      // Also the template, with its own dash prefixes.
      visit(`${stem}@.${unit.type}`, undefined, stem);
    }
    const prefix = dashPrefix(stem);
    if (prefix === undefined) return;
    const built = instance !== undefined ? `${prefix}@${instance}.${unit.type}` : `${prefix}.${unit.type}`;
    visit(built, instance, prefix);
  };
  visit(unit.name, unit.instance, unit.prefix);
  return names;
}

/** "foo-bar-baz" → "foo-bar-", "foo-bar-" → "foo-"; undefined when there is no further prefix. */
function dashPrefix(stem: string): string | undefined {
  let prefix = stem;
  let chopped = false;
  for (;;) {
    const dash = prefix.lastIndexOf('-');
    if (dash <= 0) return undefined;
    if (dash + 1 < prefix.length || chopped) return prefix.slice(0, dash + 1);
    // A trailing dash: chop it and look again, once.
    prefix = prefix.slice(0, dash);
    chopped = true;
  }
}
