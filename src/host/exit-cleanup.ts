/**
 * Files a process must not leave behind when it is stopped (SIGTERM/SIGINT end every command at
 * once: test/hostile/signals.test.ts): temp files of atomic writes and the fallback lock. Removed on the
 * 'exit' event, which process.exit() runs synchronously. A SIGKILL leaves them; the next run
 * cleans temp files (atomic-file.ts) and breaks the lock as stale (its pid is gone).
 */
import { readFileSync, unlinkSync } from 'node:fs';

const pending = new Map<string, string | undefined>();
let installed = false;

/** Remove `hostPath` at exit (only while it still holds `content`, when given). Returns the undo. */
export function removeAtExit(hostPath: string, content?: string): () => void {
  if (!installed) {
    installed = true;
    process.on('exit', runExitCleanup);
  }
  pending.set(hostPath, content);
  return () => {
    pending.delete(hostPath);
  };
}

const children = new Set<number>();

/**
 * SIGKILL the child `pid` (a negative pid: its process group) at exit unless it ended before (a hung `logger` must not outlive
 * preflight). Returns the undo, to call when the child has exited.
 */
export function killAtExit(pid: number | undefined): () => void {
  if (pid === undefined) return () => undefined;
  if (!installed) {
    installed = true;
    process.on('exit', runExitCleanup);
  }
  children.add(pid);
  return () => {
    children.delete(pid);
  };
}

export function runExitCleanup(): void {
  for (const pid of children) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  children.clear();
  for (const [hostPath, content] of pending) {
    try {
      if (content === undefined || readFileSync(hostPath, 'utf8') === content) unlinkSync(hostPath);
    } catch {
      // already gone
    }
  }
  pending.clear();
}
