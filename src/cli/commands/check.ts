/** `node-check check` (the default): inspect and report; exit 0 / 1 / 2 (docs/operations.md "Exit codes"). */
import type { Settings } from '../../settings.js';
import type { CliIo } from '../io.js';
import { runNodeCheck } from '../../run-node-check.js';
import { exitCodeFor, type UpgradeSection } from '../../model/report.js';
import { renderJson } from '../../render/json.js';
import { renderText } from '../../render/text.js';
import { checkNode } from '../../check-node.js';
import { RootFs } from '../../host/root-fs.js';
import { fallbackStatus, readFallbackState } from '../../fallback/state.js';
import type { OverlayArg } from '../../overlay/read-inputs.js';
import { kubeletForOpenShift, OPENSHIFT_KUBELET } from '../../kubelet/data/openshift-kubelet.js';
import { applyIgnores } from '../../evaluate/ignore.js';

export type { OverlayArg } from '../../overlay/read-inputs.js';

export async function runCheck(settings: Settings, io: CliIo, args: Record<string, unknown> = {}): Promise<number> {
  const overlayArgs = (args['overlays'] as readonly OverlayArg[] | undefined) ?? [];
  const openshiftVersion = args['openshiftVersion'] as UpgradeSection['openshiftVersion'] | undefined;
  // The overlay readers (and zlib, for Ignition) load only when asked for (start-path cost).
  const checked = overlayArgs.length === 0
    ? await runNodeCheck(settings, { applyFallback: false, timeoutMs: () => settings.timeoutSeconds * 1000 })
    : await checkNode({
        root: settings.root,
        unit: settings.unit,
        ...(settings.kubeletVersion !== undefined ? { kubeletVersion: settings.kubeletVersion } : {}),
        versionProbeTimeoutMs: Math.min(2000, settings.timeoutSeconds * 1000),
        fallback: fallbackStatus(readFallbackState(new RootFs(settings.root), { unit: settings.unit }), settings.fallback),
        overlays: (await import('../../overlay/read-inputs.js')).readOverlayInputs(overlayArgs),
        ...(openshiftVersion ? { openshiftVersion } : {}),
        verbose: settings.verbose,
      });
  const report = applyIgnores(checked, settings.ignore);
  io.stdout(settings.output === 'json' ? renderJson(report) : renderText(report, { color: settings.color, verbose: settings.verbose }));
  return exitCodeFor(report);
}

/**
 * The check options that need more than yargs gives: --machine-config and --overlay in
 * command-line order (they combine, applied in the order given), --openshift-version as the
 * kubelet version, and "1.29.x" (any patch) as --kubelet-version. Returns the args to use, or a
 * usage error.
 */
export function prepareCheckArgs(argv: readonly string[], parsed: Record<string, unknown>): { args: Record<string, unknown> } | { usage: string } {
  const args: Record<string, unknown> = { ...parsed };
  const list = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);
  const machineConfigs = list(parsed['machine-config']);
  const overlays = list(parsed['overlay']);
  for (const value of [...machineConfigs, ...overlays]) if (value === '') return { usage: '--machine-config and --overlay need a file or directory' };
  args['overlays'] = inArgvOrder(argv, machineConfigs, overlays);

  const kubeletVersion = parsed['kubelet-version'];
  if (typeof kubeletVersion === 'string' && /^v?\d+\.\d+\.[xX*]$/.test(kubeletVersion)) args['kubelet-version'] = kubeletVersion.replace(/\.[xX*]$/, '');
  const openshift = parsed['openshift-version'];
  if (openshift !== undefined) {
    if (typeof openshift !== 'string') return { usage: '--openshift-version needs a version like 4.16' };
    if (kubeletVersion !== undefined) return { usage: 'give --kubelet-version or --openshift-version, not both' };
    const row = kubeletForOpenShift(openshift);
    if (!row) return { usage: `--openshift-version: "${openshift}" is not an OpenShift version node-check knows (4.${OPENSHIFT_KUBELET[0]!.openshiftMinor} to 4.${OPENSHIFT_KUBELET[OPENSHIFT_KUBELET.length - 1]!.openshiftMinor})` };
    args['kubelet-version'] = `1.${row.kubeletMinor}`;
    args['openshiftVersion'] = { openshift: `4.${row.openshiftMinor}`, kubeletMinor: `1.${row.kubeletMinor}`, verified: row.verified } satisfies UpgradeSection['openshiftVersion'];
  }
  return { args };
}

function inArgvOrder(argv: readonly string[], machineConfigs: readonly string[], overlays: readonly string[]): OverlayArg[] {
  const ordered: OverlayArg[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    const match = /^--(machine-config|overlay)(?:=(.*))?$/s.exec(word);
    if (!match) continue;
    const value = match[2] ?? argv[++i];
    if (value === undefined) break;
    ordered.push({ kind: match[1] === 'overlay' ? 'overlay' : 'machine-config', value });
  }
  const same = (kind: OverlayArg['kind'], values: readonly string[]) => {
    const mine = ordered.filter((o) => o.kind === kind).map((o) => o.value);
    return mine.length === values.length && mine.every((v, i) => v === values[i]);
  };
  if (same('machine-config', machineConfigs) && same('overlay', overlays)) return ordered;
  // Spelled in a way the scan does not follow (aliases, say): machine configs first, then directories.
  return [...machineConfigs.map((value) => ({ kind: 'machine-config' as const, value })), ...overlays.map((value) => ({ kind: 'overlay' as const, value }))];
}
