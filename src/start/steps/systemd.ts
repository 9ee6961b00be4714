/**
 * What systemd refuses before kubelet runs (src/systemd-preconditions/): a unit that is masked or
 * that systemd refused to load (two ExecStart= lines, an unknown specifier, a bad section header),
 * a missing non-optional EnvironmentFile= (the unit fails with result 'resources' before any
 * ExecStartPre, so the preflight in kubelet's own unit never sees it:
 * systemd/node-check-precheck.service reports it), an ExecStart= binary that is missing or not
 * executable, an argument list execve(2) refuses (both 203/EXEC). A unit that did not load is also
 * decided in evaluate, before any kubelet version is looked at. These do not depend on the kubelet
 * version.
 */
import type { StartCheck } from '../start-check.js';
import { PASS } from '../start-check.js';
import { checkSystemdPreconditions, classifyOutcome } from '../../systemd-preconditions/check-systemd.js';
import type { PreconditionFailure, PreconditionUndecidable } from '../../systemd-preconditions/outcome.js';
import { binaryNotInRoot, spawnedPaths } from '../binaries-in-root.js';

export const systemdStep: StartCheck = {
  id: 'systemd-preconditions',
  title: 'systemd can spawn kubelet (the unit loads, environment files, the ExecStart= binary)',
  stage: 'systemd',
  appliesTo: () => true,
  run(context) {
    const { model } = context;
    // A binary the root does not carry is unknown, not missing (src/start/binaries-in-root.ts):
    // its lookup is "not checked", while an argument list execve refuses still decides.
    const notInRoot = spawnedPaths(model).filter((p) => p in model.files && binaryNotInRoot(model, p));
    const outcomes = checkSystemdPreconditions({ service: model.service, files: model.files, notCarried: notInRoot, ...(model.kubelet ? { kubeletPath: model.kubelet.kubeletPath } : {}), ...(model.nodeMachine ? { nodeMachine: model.nodeMachine } : {}) });
    let failure: PreconditionFailure | undefined;
    let undecided: PreconditionUndecidable | undefined;
    for (const outcome of outcomes.map(classifyOutcome)) {
      switch (outcome.kind) {
        case 'failure':
          failure ??= outcome.failure;
          break;
        case 'undecidable':
          undecided ??= outcome.undecidable;
          break;
        case 'not-checked':
          // Reported as notChecked by evaluate (binariesNotChecked); it changes no answer.
          break;
      }
    }
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
    if (undecided) return { undecidable: undecided.undecidable, ...(undecided.path ? { path: undecided.path } : {}) };
    return PASS;
  },
};
