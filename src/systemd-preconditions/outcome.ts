/**
 * What a precondition check returns in its lists (the systemd and host checks): the refusal and
 * cannot-tell halves of the one Verdict (src/model/verdict.ts); a check that passes is absent.
 */
import type { Finding } from '../model/findings.js';
import type { CannotTell, Refusal } from '../model/verdict.js';

/** A predicted refusal with the exact text (src/model/verdict.ts). */
export type PreconditionFailure = Refusal;

export type PreconditionUndecidable = CannotTell;

export type PreconditionOutcome = PreconditionFailure | PreconditionUndecidable;

export function isFailure(outcome: PreconditionOutcome | { readonly notChecked: string }): outcome is PreconditionFailure {
  return 'kubeletError' in outcome;
}

/** strerror(3) as systemd prints it with %m (glibc, C locale). */
export function strerror(code: string): string | undefined {
  return STRERROR[code];
}

const STRERROR: Readonly<Record<string, string>> = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  ELOOP: 'Too many levels of symbolic links',
  ENOEXEC: 'Exec format error',
  ENAMETOOLONG: 'File name too long',
  EIO: 'Input/output error',
  E2BIG: 'Argument list too long',
  EBADMSG: 'Bad message',
  EINVAL: 'Invalid argument',
  ENXIO: 'No such device or address',
};

/**
 * A failure as a report Finding (severity error: kubelet will not start). kubeletError carries
 * systemd's line for the systemd checks; inexact failures say so in the message.
 */
export function failureToFinding(failure: PreconditionFailure): Finding {
  return {
    id: failure.findingId,
    severity: 'error',
    message: failure.inexact ? `${failure.message} (The exact text may differ on this version.)` : failure.message,
    ...(failure.path !== undefined ? { path: failure.path } : {}),
    remediation: failure.remediation,
    kubeletError: failure.kubeletError,
  };
}
