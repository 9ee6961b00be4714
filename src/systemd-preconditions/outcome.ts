/**
 * What a precondition check returns (the shape every node-check rule shares):
 * a predicted failure with the exact text, or "cannot tell". Plain data.
 */
import type { Finding } from '../model/findings.js';
import type { FindingId } from '../catalog/findings.js';

export interface PreconditionFailure {
  readonly findingId: FindingId;
  /**
   * The exact line the failure leaves: for systemd, the journal MESSAGE of PID 1 (with the
   * "<unit>: " prefix systemd puts in front); for kubelet, the text it prints as err="...".
   */
  readonly kubeletError: string;
  readonly message: string;
  readonly remediation: string;
  readonly path?: string;
  /** The exit status systemd records for the main process (203 = EXEC, 1 = kubelet's own exit). */
  readonly exitStatus?: number;
  /** The verdict is certain, the exact text is not (version not pinned, Go map order, gRPC wording). */
  readonly inexact?: boolean;
  /** systemd's Result= for the unit after the failure ('resources', 'exit-code'). */
  readonly systemdResult?: string;
  /** Every journal line systemd logs for the failure, in order (the first is kubeletError). */
  readonly systemdLines?: readonly string[];
}

export interface PreconditionUndecidable {
  readonly undecidable: string;
  /** The finding this would have been, when known. */
  readonly findingId?: FindingId;
  readonly path?: string;
}

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
