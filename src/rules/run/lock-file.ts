/**
 * --exit-on-lock-contention and --lock-file, early in run() (cmd/kubelet/app/server.go run(),
 * 1.24-1.37): "cannot exit on lock file contention: no lock file specified" (errors.New, returned
 * unwrapped); with --lock-file, flock.Acquire creates and locks the file, which is not a file fact
 * node-check reads: cannot tell.
 */
import type { FindingKind } from '../../catalog/findings.js';
import { MODELLED_RANGE } from '../../kubelet/data/minors.js';
import { cannotTell, PASS } from '../../model/verdict.js';
import { runFails, type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'kubelet-lock-file-missing',
    title: '--exit-on-lock-contention is set without --lock-file',
    severity: 'error',
    versions: `all (${MODELLED_RANGE})`,
    messageId: '9fb0c48111c94fb7bc36c9c6b17ea82c',
    meaning: 'Early in run() kubelet refuses --exit-on-lock-contention without a lock file: "failed to run Kubelet: cannot exit on lock file contention: no lock file specified", exit status 1.',
    fix: 'Add --lock-file (e.g. /var/run/lock/kubelet.lock) or remove --exit-on-lock-contention.',
  },
] as const satisfies readonly FindingKind[];

export const lockFileRule: Rule<typeof KINDS> = {
  id: 'run/lock-file',
  step: 'run:lock-file',
  kinds: KINDS,
  inputs: { flags: { 'exit-on-lock-contention': 'run() (kubelet-lock-file-missing)', 'lock-file': 'run() flock.Acquire: "cannot tell" when set (creating and locking the file is not modelled)' } },
  decide(context) {
    const lockFile = context.flag('lock-file') ?? '';
    const unitPath = context.model.service.execStart?.source?.file;
    if (context.flagIsTrue('exit-on-lock-contention') && lockFile === '') {
      return runFails(context, 'cannot exit on lock file contention: no lock file specified', {
        findingId: 'kubelet-lock-file-missing',
        message: `Kubelet 1.${context.minor} is given --exit-on-lock-contention without --lock-file and exits.`,
        remediation: 'Add --lock-file=/var/run/lock/kubelet.lock (or drop --exit-on-lock-contention).',
        ...(unitPath ? { path: unitPath } : {}),
      });
    }
    if (lockFile !== '') return cannotTell(`--lock-file ${lockFile}: whether kubelet can create and lock it is not modelled`, unitPath);
    return PASS;
  },
};
