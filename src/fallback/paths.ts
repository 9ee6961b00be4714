/**
 * Where the fallback lives on the node. Everything is under /run: never in a file the
 * machine-config daemon manages, and gone at reboot so every boot
 * decides afresh (docs/fallback.md "Files").
 */
import { posix } from 'node:path';

export const RUN_DIR = '/run';
export const NODE_CHECK_RUN_DIR = '/run/node-check';
export const FALLBACK_STATE_PATH = '/run/node-check/fallback.json';
export const LOCK_PATH = '/run/node-check/lock';
export const FILTERED_CONFIG_DIR = '/run/node-check/credential-providers';
export const RUNTIME_UNIT_DIR = '/run/systemd/system';
export const DROP_IN_NAME = '99-node-check-fallback.conf';

export function dropInDir(unit: string): string {
  return `${RUNTIME_UNIT_DIR}/${unit}.d`;
}

export function dropInPath(unit: string): string {
  return `${dropInDir(unit)}/${DROP_IN_NAME}`;
}

/** One fixed name per unit, so re-planning rewrites the same file instead of leaving old ones. */
export function filteredConfigPath(unit: string): string {
  return `${FILTERED_CONFIG_DIR}/${unit}.yaml`;
}

/** An absolute, normalized path strictly below /run (no "..", no "//"). */
export function isUnderRun(nodePath: string): boolean {
  return nodePath.startsWith('/') && posix.normalize(nodePath) === nodePath && nodePath.startsWith(`${RUN_DIR}/`) && !nodePath.endsWith('/');
}
