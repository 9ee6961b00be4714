// node-check's side of the config-validation probe: one case (scripts/probe/config-validation-cases.mjs)
// judged by node-check's own start steps, from parsing the command line to ValidateKubeletConfiguration
// (src/start/start-sequence.ts, systemd's step left out: the probe has no unit). The case's files are
// written under a temporary root and read by discovery's own reader of --config and --config-dir
// (src/discover/discover-node.ts readKubeletConfig); the rest of the model is built in memory.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { RootFs } from '../../src/host/root-fs.js';
import { readKubeletConfig } from '../../src/discover/discover-node.js';
import { requireTraits } from '../../src/kubelet/version.js';
import { lastValue } from '../../src/kubelet/flags.js';
import { START_SEQUENCE } from '../../src/start/start-sequence.js';
import { StartContext } from '../../src/start/start-context.js';
import { simulateStart } from '../../src/start/simulate-start.js';
import type { NodeModel } from '../../src/model/node.js';
import { executable, modelOf } from '../../test/fallback/model.js';

export interface ProbeCase {
  readonly id: string;
  readonly args: readonly string[];
  readonly files: Readonly<Record<string, string>>;
  readonly env: Readonly<Record<string, string>>;
}

/** What node-check says: fails (kubeletError, inexact), passes, or cannot tell (why). */
export type NodeCheckAnswer =
  | { readonly verdict: 'fails'; readonly step: string; readonly error: string; readonly inexact: boolean }
  | { readonly verdict: 'passes' }
  | { readonly verdict: 'cannot-tell'; readonly why: string };

const LAST_STEP = 'kubelet-config-validation';
const STEPS = START_SEQUENCE.slice(START_SEQUENCE.findIndex((s) => s.id === 'kubelet-command-line'), START_SEQUENCE.findIndex((s) => s.id === LAST_STEP) + 1);

export class CaseRoots {
  private readonly base = mkdtempSync(join(tmpdir(), 'node-check-probe-'));
  private n = 0;

  /** The case's files under a fresh directory; "path/" is a directory. */
  write(files: Readonly<Record<string, string>>): string {
    const root = join(this.base, String(this.n++));
    mkdirSync(root);
    for (const path of Object.keys(files).sort()) {
      const full = join(root, path);
      if (path.endsWith('/')) mkdirSync(full, { recursive: true });
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, files[path]!);
      }
    }
    return root;
  }

  close(): void {
    rmSync(this.base, { recursive: true, force: true });
  }
}

/** node-check's answer for one case on kubelet 1.<minor>; `cgroupV2` is the probe host's. */
export function judgeCase(minor: number, kase: ProbeCase, cgroupV2: boolean, roots: CaseRoots): NodeCheckAnswer {
  const base = modelOf({ execStart: `/usr/bin/kubelet ${kase.args.join(' ')}`, files: { '/usr/bin/kubelet': executable() }, env: { ...kase.env } });
  const flags = base.kubelet!.flags;
  const configFile = lastValue(flags, 'config');
  const configDir = lastValue(flags, 'config-dir');
  // A case of regular files and no --config-dir is what discovery reads without the disk (the
  // file's bytes, or ENOENT); directories and drop-ins go through its reader on a written root.
  const onDisk = configDir !== undefined || Object.keys(kase.files).some((p) => p.endsWith('/'));
  const kubeletConfig = onDisk
    ? readKubeletConfig(new RootFs(roots.write(kase.files)), configFile, configDir)
    : configFile === undefined
      ? {}
      : { configFile: { path: configFile, content: kase.files[configFile] !== undefined ? Buffer.from(kase.files[configFile]!) : { errno: 'ENOENT' } } };
  const model: NodeModel = {
    ...base,
    kubeletConfig,
    host: { facts: { cgroupVersion: cgroupV2 ? 2 : 1 }, criSockets: {}, notChecked: [] },
  } as NodeModel;
  const context = new StartContext(model, minor, requireTraits(minor), 'upstream');
  const simulation = simulateStart(context, STEPS);
  if (simulation.failure) return { verdict: 'fails', step: simulation.failure.checkId, error: simulation.failure.kubeletError, inexact: simulation.failure.inexact === true };
  if (simulation.undecided.length > 0) return { verdict: 'cannot-tell', why: simulation.undecided.map((u) => u.reason).join('; ') };
  return { verdict: 'passes' };
}
