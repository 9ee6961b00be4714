/**
 * "Will kubelet start after this configuration is applied?": the node is checked as it
 * is now, then through an OverlayRootFs with the configurations laid over it, and the second
 * report, with an `upgrade` section, is the answer. The root is never written.
 */
import { posix } from 'node:path';
import { discoverNode } from '../discover/discover-node.js';
import type { KubeletFlavor } from '../kubelet/flavor.js';
import { evaluate } from '../evaluate/evaluate.js';
import { RootFs } from '../host/root-fs.js';
import type { Finding } from '../model/findings.js';
import type { NodeModel } from '../model/node.js';
import type { FallbackStatus, Report, UpgradeSection } from '../model/report.js';
import { DecodedBytesBudget, OverlayInputError, readMachineConfig, type Layer } from './ignition.js';
import { OverlayRootFs } from './overlay-root-fs.js';

/** What the CLI hands over: a config file already read (or why it could not be), or a directory. */
export type OverlayInput =
  | { readonly kind: 'machine-config'; readonly origin: string; readonly data: Buffer }
  | { readonly kind: 'machine-config'; readonly origin: string; readonly error: string }
  | { readonly kind: 'directory'; readonly dir: string };

export interface UpgradeCheckOptions {
  readonly root: string;
  readonly unit: string;
  readonly kubeletVersion?: string;
  readonly kubeletFlavor?: KubeletFlavor;
  readonly versionProbeTimeoutMs: number;
  readonly fallback?: FallbackStatus;
  readonly overlays: readonly OverlayInput[];
  readonly openshiftVersion?: UpgradeSection['openshiftVersion'];
  /** --verbose: `provenance` of the node after the overlays (paths as kubelet will see them). */
  readonly verbose?: boolean;
}

export async function checkUpgrade(options: UpgradeCheckOptions): Promise<Report> {
  const base = new RootFs(options.root);
  const beforeModel = await discoverNode({ root: options.root, unit: options.unit, kubeletVersion: options.kubeletVersion, kubeletFlavor: options.kubeletFlavor, versionProbeTimeoutMs: options.versionProbeTimeoutMs, rootFs: base });
  const before = evaluate(beforeModel, { fallback: options.fallback });

  const extra: Finding[] = [];
  let undecided = false;
  const layers: Layer[] = [];
  const decodedBytes = new DecodedBytesBudget();
  for (const input of options.overlays) {
    if (input.kind === 'directory') {
      const st = new RootFs('/').stat(posix.resolve(input.dir));
      if (!st.ok || st.type !== 'directory') {
        extra.push(invalid(`--overlay ${input.dir}: not a directory (${st.ok ? st.type : st.code}); node-check cannot tell what it would lay over the node.`));
        undecided = true;
        continue;
      }
      const { layer, problems } = OverlayRootFs.directoryLayer(input.dir);
      for (const problem of problems) extra.push(invalid(`--overlay ${input.dir}: ${problem}.`));
      if (problems.length > 0) undecided = true;
      layers.push(layer);
      continue;
    }
    if ('error' in input) {
      extra.push(invalid(`${input.origin}: ${input.error}`));
      undecided = true;
      continue;
    }
    try {
      const layer = readMachineConfig(input.data, input.origin, decodedBytes);
      for (const note of layer.unmodelled) {
        extra.push({
          id: 'overlay-not-modelled',
          severity: note.decides ? 'warning' : 'info',
          message: `${layer.name} (${input.origin}): ${note.message}.`,
          remediation: 'Check the named field; node-check answers once the configuration is self-contained.',
        });
        if (note.decides) undecided = true;
      }
      layers.push(layer);
    } catch (error) {
      if (!(error instanceof OverlayInputError)) throw error;
      extra.push(invalid(`${error.message}.`));
      undecided = true;
    }
  }

  // The version the node's kubelet reported (or was given) stays the answer's version: never run
  // a binary that the overlay names or writes.
  const kubeletVersion = options.kubeletVersion ?? beforeModel.kubeletVersion?.text;
  const overlay = new OverlayRootFs(base, layers, { hostRoot: base.isHostRoot && kubeletVersion !== undefined });
  const changedPaths = overlay.changedPaths();
  for (const problem of overlay.problems) {
    extra.push({ id: 'overlay-not-modelled', severity: 'warning', message: `${problem.layer}: ${problem.problem}.`, path: problem.path, remediation: 'The machine-config daemon would fail to write this entry; fix the configuration or the node.' });
    undecided = true;
  }
  const afterModel = await discoverNode({ root: options.root, unit: options.unit, kubeletVersion, kubeletFlavor: options.kubeletFlavor, versionProbeTimeoutMs: options.versionProbeTimeoutMs, rootFs: overlay });
  const after = evaluate(afterModel, { fallback: options.fallback });

  for (const [path, why] of overlay.unknownRead) {
    extra.push({
      id: 'overlay-content-unknown',
      severity: 'warning',
      message: `node-check cannot tell what ${path} holds after the upgrade: ${why}; kubelet's start depends on it.`,
      path,
      remediation: 'Inline the file as a data: URL in the MachineConfig, or lay the expected file over the node with --overlay DIR.',
    });
    undecided = true;
  }
  if (options.openshiftVersion && !options.openshiftVersion.verified) {
    extra.push({
      id: 'openshift-version-unverified',
      severity: 'info',
      message: `OpenShift ${options.openshiftVersion.openshift} is taken to ship kubelet ${options.openshiftVersion.kubeletMinor}; that row of the table is not verified.`,
      remediation: 'Pass --kubelet-version with the target release\'s kubelet to be sure.',
    });
  }

  const kubeletWillStart = undecided ? null : after.kubeletWillStart;
  // A file whose contents node-check cannot tell reads as an I/O error here; what the evaluation
  // says about such a file (kubelet "cannot load its --config file … input/output error") is
  // not what kubelet would print, so it is left out: overlay-content-unknown names the file instead.
  const unknown = new Set([...overlay.unknownRead.keys()].map((p) => posix.resolve('/', p)));
  const afterFindings = after.findings.filter((f) => f.path === undefined || !unknown.has(posix.resolve('/', f.path)));
  // What made the answer "cannot tell" comes first (as cannot-decide does); notes go last.
  const findings = undecided ? [...extra, ...afterFindings] : [...afterFindings, ...extra];
  const names = layers.map((l) => l.name).join(' + ') || 'nothing';
  const upgrade: UpgradeSection = {
    sources: layers.map((l) => ({ name: l.name, kind: l.kind, origin: l.origin })),
    summary: summaryOf(before.kubeletWillStart, kubeletWillStart, names),
    changedPaths,
    decidingPaths: decidingPaths(changedPaths, overlay, { ...after, findings }, afterModel, before),
    unknownPaths: overlay.unknownPaths(),
    before: { kubeletWillStart: before.kubeletWillStart },
    after: { kubeletWillStart },
    ...(options.openshiftVersion ? { openshiftVersion: options.openshiftVersion } : {}),
  };
  const provenance = options.verbose ? (await import('../evaluate/provenance.js')).provenanceOf(afterModel, options.openshiftVersion?.openshift) : undefined;
  return { ...after, kubeletWillStart, findings, upgrade, ...(provenance ? { provenance } : {}) };
}

export function summaryOf(before: boolean | null, after: boolean | null, names: string): string {
  const applying = `after applying ${names}`;
  if (before === true && after === false) return `kubelet starts now but will NOT start ${applying}`;
  if (before === false && after === true) return `kubelet does not start now but will start ${applying}`;
  if (after === true) return `kubelet is predicted to start ${applying}`;
  if (after === false) return `kubelet will NOT start ${applying} (it does not start now either)`;
  return `node-check cannot tell whether kubelet will start ${applying}`;
}

/**
 * The changed paths that decided, kept simple on purpose (a path here is one the answer rests on,
 * not a proof of causality), among the changed paths discovery read:
 * - any path a finding names;
 * - the credential provider config (file or directory), the plugin directory and plugins, and
 *   kubelet's --config / --config-dir files (feature gates);
 * - the unit file, its drop-ins and EnvironmentFile= files, only when kubelet's command line (or
 *   the unit file) differs from the node's now: a drop-in that adds an ExecStartPre decides nothing.
 */
function decidingPaths(changed: readonly string[], overlay: OverlayRootFs, report: Report, model: NodeModel, before: Report): string[] {
  const norm = (p: string) => posix.resolve('/', p);
  const named = new Set<string>();
  for (const f of report.findings) if (f.path) named.add(norm(f.path));
  const k = report.kubelet;
  const inputs = [k.credentialProviderConfig, k.credentialProviderBinDir, ...k.providers.map((p) => p.binary), model.kubeletConfig.configFile?.path, model.kubeletConfig.configDir?.path];
  const commandLineChanged = JSON.stringify(before.kubelet.argv) !== JSON.stringify(k.argv) || before.kubelet.unitFile !== k.unitFile;
  if (commandLineChanged) inputs.push(k.unitFile, ...k.dropIns, ...model.service.environmentFiles.map((e) => e.path));
  const prefixes = inputs.filter((p): p is string => typeof p === 'string' && p !== '').map(norm);
  const under = (p: string) => prefixes.some((i) => p === i || p.startsWith(i + '/'));
  return changed.filter((p) => named.has(p) || (overlay.touched.has(p) && under(p)));
}

function invalid(message: string): Finding {
  return {
    id: 'overlay-invalid',
    severity: 'warning',
    message: `node-check cannot tell what this upgrade writes: ${message}`,
    remediation: 'Pass the rendered config itself (`oc get mc rendered-worker-<hash> -o yaml`), one MachineConfig or Ignition config per --machine-config, and fix the named field.',
  };
}
