/**
 * Which systemd the node runs, learned without executing anything: every systemd since v231 ships
 * its private library as /usr/lib/systemd/libsystemd-shared-<version>[suffix].so (RHEL 8:
 * "-239.so", Debian 12: "-252.so", Fedora: "-255.4-1.fc40.so"). The version picks the unit-file
 * rules that differ between releases.
 */
import type { RootFs } from '../host/root-fs.js';
import { LEGACY_UNIT_FILE_DIALECT, MODERN_UNIT_FILE_DIALECT, type UnitFileDialect } from './unit-file.js';

const LIBRARY_DIRS = ['/usr/lib/systemd', '/lib/systemd', '/usr/lib64/systemd'];

export function detectSystemdVersion(fs: RootFs): number | undefined {
  for (const dir of LIBRARY_DIRS) {
    const listed = fs.readdir(dir);
    if (!listed.ok) continue;
    const versions = listed.entries
      .map((entry) => /^libsystemd-shared-(\d+)/.exec(entry.name)?.[1])
      .filter((v): v is string => v !== undefined)
      .map(Number);
    if (versions.length > 0) return Math.max(...versions);
  }
  return undefined;
}

export interface VersionRules {
  readonly unitFile: UnitFileDialect;
  /**
   * True when the version is unknown or between the two verified ones (239 and 252): the file is
   * read with the v252 rules and also with the v239 ones, and a difference is reported.
   */
  readonly compareWithLegacy: boolean;
  /** Before v254 a backslash at the end of an env-file comment continues the comment. */
  readonly envCommentBackslashContinues: boolean;
  /** RHEL 8's systemd 239 reads the type-wide "service.d" drop-ins before the unit's own. */
  readonly typeWideDropInsFirst: boolean;
  /** The ":" ExecStart= prefix (no environment expansion) exists from v243 on. */
  readonly execColonPrefix: boolean;
}

export function rulesFor(version: number | undefined): VersionRules {
  if (version !== undefined && version <= 239) {
    return { unitFile: LEGACY_UNIT_FILE_DIALECT, compareWithLegacy: false, envCommentBackslashContinues: true, typeWideDropInsFirst: true, execColonPrefix: false };
  }
  return {
    unitFile: MODERN_UNIT_FILE_DIALECT,
    compareWithLegacy: version === undefined || version < 252,
    envCommentBackslashContinues: version === undefined || version < 254,
    typeWideDropInsFirst: false,
    execColonPrefix: version === undefined || version >= 243,
  };
}
