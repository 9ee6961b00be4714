/**
 * Asks the live node's kubelet for its version (`kubelet --version` prints "Kubernetes v1.28.7").
 * Only ever called for the live root "/", bounded in time, and never through a shell.
 */
import { parseKubeletVersion } from '../kubelet/version.js';

export async function probeKubeletVersion(
  kubeletPath: string,
  timeoutMs: number,
): Promise<{ ok: true; version: string } | { ok: false; problem: string }> {
  const { execa } = await import('execa'); // only on the live root without --kubelet-version
  const result = await execa(kubeletPath, ['--version'], { reject: false, timeout: timeoutMs, stdin: 'ignore', env: { LC_ALL: 'C' } });
  if (result.timedOut) return { ok: false, problem: `${kubeletPath} --version did not answer within ${timeoutMs} ms` };
  const version = parseKubeletVersion(String(result.stdout ?? '').trim());
  if (result.exitCode === 0 && version) return { ok: true, version: version.raw };
  return { ok: false, problem: `${kubeletPath} --version failed: ${String(result.stderr || result.stdout || result.code || '').trim().split('\n')[0]}` };
}
