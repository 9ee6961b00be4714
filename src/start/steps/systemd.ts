/**
 * What systemd refuses before kubelet runs (src/systemd-preconditions/): a missing non-optional
 * EnvironmentFile= (the unit fails with result 'resources' before any ExecStartPre, so the
 * preflight in kubelet's own unit never sees it: systemd/node-check-precheck.service reports it),
 * an ExecStart= binary that is missing or not executable, an argument list execve(2) refuses
 * (both 203/EXEC). A masked unit is decided in evaluate, since it has no command line at all.
 * These do not depend on the kubelet version.
 */
import type { StartCheck } from '../start-check.js';
import { PASS } from '../start-check.js';
import { checkSystemdPreconditions, SYSTEMD_FINDING } from '../../systemd-preconditions/check-systemd.js';
import { binaryNotInRoot, spawnedPaths } from '../binaries-in-root.js';
import { isFailure } from '../../systemd-preconditions/outcome.js';

export const systemdStep: StartCheck = {
  id: 'systemd-preconditions',
  title: 'systemd can spawn kubelet (environment files, the ExecStart= binary)',
  stage: 'systemd',
  appliesTo: () => true,
  run(context) {
    const { model } = context;
    // A binary the root does not carry is unknown, not missing: an argument list execve refuses
    // still decides (203/EXEC either way), a lookup does not.
    const notInRoot = spawnedPaths(model).filter((p) => p in model.files && binaryNotInRoot(model, p));
    const outcomes = checkSystemdPreconditions({ service: model.service, files: model.files, notCarried: notInRoot, ...(model.kubelet ? { kubeletPath: model.kubelet.kubeletPath } : {}), ...(model.nodeMachine ? { nodeMachine: model.nodeMachine } : {}) });
    // A binary the root does not carry is not checked (src/start/binaries-in-root.ts).
    const aboutFiles: readonly string[] = [SYSTEMD_FINDING.envFileMissing, SYSTEMD_FINDING.envFileUnreadable, SYSTEMD_FINDING.argumentListTooLong];
    const relevant = outcomes.filter((o) => !(o.path && binaryNotInRoot(model, o.path) && !aboutFiles.includes(o.findingId ?? '')));
    const failure = relevant.find(isFailure);
    const undecided = relevant.find((o) => !isFailure(o));
    if (failure) {
      return {
        fail: {
          findingId: failure.findingId,
          message: failure.message,
          remediation: failure.remediation,
          kubeletError: failure.kubeletError,
          logLine: failure.kubeletError,
          exitStatus: failure.exitStatus ?? 1,
          ...(failure.path ? { path: failure.path } : {}),
          ...(failure.inexact ? { inexact: true } : {}),
        },
      };
    }
    if (undecided && 'undecidable' in undecided) return { undecidable: undecided.undecidable, ...(undecided.path ? { path: undecided.path } : {}) };
    return PASS;
  },
};
