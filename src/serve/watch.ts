/**
 * Watches the files whose change can change the answer (the unit and its drop-in directories, the
 * provider config, the plugin directory) and calls back, debounced. Watching is a hint only: the
 * periodic re-check is what guarantees freshness, so a watch that cannot be set is skipped.
 */
import { watch, type FSWatcher } from 'node:fs';
import { RootFs } from '../host/root-fs.js';

export interface Watcher {
  close(): void;
}

export function watchPaths(root: string, nodePaths: readonly string[], onChange: () => void, debounceMs = 500): Watcher {
  const fs = new RootFs(root);
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  };
  for (const nodePath of new Set(nodePaths)) {
    const resolved = fs.resolve(nodePath);
    if (!resolved.ok) continue;
    try {
      const watcher = watch(resolved.hostPath, { persistent: false }, fire);
      watcher.on('error', () => watcher.close());
      watchers.push(watcher);
    } catch {
      // Not watchable (gone, or too many watches): the interval still re-checks.
    }
  }
  return {
    close() {
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
