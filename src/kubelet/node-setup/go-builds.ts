/**
 * One answer for every Go build a kubelet minor's upstream releases used
 * (src/kubelet/data/go-toolchain.ts): node-check knows kubelet's minor, not its patch, so a Go
 * library outcome decides only when every Go minor in the range, each encoding/pem form it shipped
 * and each GODEBUG setting kubelet's environment may give, agree. The same refusal in other words
 * keeps the first words, marked inexact.
 */
import type { PemDecoder } from '../../go/pem.js';
import type { GoTls } from '../../go/tls/key-pair.js';
import { KUBELET_GO_TOOLCHAINS } from '../data/go-toolchain.js';

export type GoOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string; readonly exact: boolean } | { readonly undecidable: string };
export type KubeletGoAnswer<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string; readonly inexact: boolean } | { readonly undecidable: string };

/** encoding/pem changed how it finds a block in go1.24.10 and go1.25.4 (src/go/pem.ts): those minors have both. */
export function pemDecodersOf(goMinor: number): readonly PemDecoder[] {
  if (goMinor <= 23) return ['begin-first'];
  if (goMinor >= 26) return ['end-first'];
  return ['begin-first', 'end-first'];
}

/**
 * `judge` run for every build of kubelet 1.`minor`. `godebug`: GODEBUG in kubelet's environment;
 * one naming x509negativeserial or x509rsacrt is tried both ways (Go's GODEBUG parsing is not
 * ported).
 */
export function acrossKubeletGo<T>(minor: number, godebug: string | undefined, judge: (go: GoTls) => GoOutcome<T>): KubeletGoAnswer<T> {
  const toolchain = KUBELET_GO_TOOLCHAINS[minor];
  if (!toolchain) return { undecidable: `the Go release kubelet 1.${minor} is built with is not known` };
  const bothWays = (name: string, value: boolean) => (godebug?.includes(name) ? [true, false] : [value]);
  const negativeSerial = bothWays('x509negativeserial', toolchain.negativeSerialAllowed);
  const rsaCrt = bothWays('x509rsacrt', toolchain.rsaCrtRecompute);
  let answer: GoOutcome<T> | undefined;
  for (let go = toolchain.firstGo; go <= toolchain.lastGo; go++) {
    for (const decoder of pemDecodersOf(go)) {
      for (const negativeSerialAllowed of negativeSerial) {
        for (const rsaCrtRecompute of rsaCrt) {
          const outcome = judge({ minor: go, decoder, negativeSerialAllowed, rsaCrtRecompute });
          if ('undecidable' in outcome) return outcome;
          if (answer === undefined || 'undecidable' in answer) answer = outcome;
          else if (answer.ok !== outcome.ok) {
            const godebugs = negativeSerial.length > 1 || rsaCrt.length > 1 ? ' and GODEBUG either way' : '';
            return { undecidable: `the Go releases kubelet 1.${minor} was built with (go1.${toolchain.firstGo}-go1.${toolchain.lastGo})${godebugs} disagree on it` };
          } else if (!answer.ok && !outcome.ok && (answer.error !== outcome.error || !outcome.exact)) answer = { ok: false, error: answer.error, exact: false };
        }
      }
    }
  }
  if (!answer || 'undecidable' in answer) return { undecidable: `no Go release is known for kubelet 1.${minor}` };
  return answer.ok ? answer : { ok: false, error: answer.error, inexact: !answer.exact };
}
