/** A throw-away node root for tests: files and symlinks given by their node paths. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RootFs } from '../../src/host/root-fs.js';

export interface TempRootSpec {
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  readonly symlinks?: Readonly<Record<string, string>>;
  readonly dirs?: readonly string[];
}

export function makeTempRoot(spec: TempRootSpec, cleanup: (fn: () => void) => void): RootFs {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-systemd-'));
  cleanup(() => fs.rmSync(root, { recursive: true, force: true }));
  const host = (nodePath: string) => path.join(root, nodePath);
  for (const dir of spec.dirs ?? []) fs.mkdirSync(host(dir), { recursive: true });
  for (const [nodePath, content] of Object.entries(spec.files ?? {})) {
    fs.mkdirSync(path.dirname(host(nodePath)), { recursive: true });
    fs.writeFileSync(host(nodePath), content);
  }
  for (const [nodePath, target] of Object.entries(spec.symlinks ?? {})) {
    fs.mkdirSync(path.dirname(host(nodePath)), { recursive: true });
    fs.symlinkSync(target, host(nodePath));
  }
  return new RootFs(root);
}
