/**
 * Data flows one way between the folders of src/: no folder imports, at run time, a folder that
 * imports it back (directly or through others). Type-only imports do not count: they leave no
 * code behind. A cycle names the imports that close it.
 */
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}
/** The folder under src/ a file is in; files directly in src/ are the top-level runners. */
const folderOf = (file: string) => {
  const parts = relative(SRC, file).split('/');
  return parts.length === 1 ? '(src)' : parts[0]!;
};

/** Folder → folder → one import that makes the edge (for the message). */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s(?!type\b)[^;]*?\sfrom\s+'(\.[^']+)'/gms)) {
      const target = resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts'));
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === to) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${relative(SRC, file)} -> ${relative(SRC, target)}`);
    }
  }
  return graph;
}

/** A path from `start` back to itself, if there is one. */
function cycleThrough(graph: Map<string, Map<string, string>>, start: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (node: string, path: string[]): string[] | undefined => {
    for (const next of graph.get(node)?.keys() ?? []) {
      if (next === start) return [...path, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const found = walk(next, [...path, next]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start, [start]);
}

t.test('no import cycle between the folders of src/', async (t) => {
  const graph = folderGraph();
  t.ok(graph.size > 10, 'the graph was read');
  for (const folder of graph.keys()) {
    const cycle = cycleThrough(graph, folder);
    t.notOk(cycle, `${folder} is on no cycle${cycle ? `: ${cycle.slice(1).map((to, i) => graph.get(cycle[i]!)!.get(to)).join(', ')}` : ''}`);
  }
});

t.test('the check sees a cycle when there is one', async (t) => {
  const graph = new Map([['a', new Map([['b', 'a.ts -> b.ts']])], ['b', new Map([['a', 'b.ts -> a.ts']])]]);
  t.same(cycleThrough(graph, 'a'), ['a', 'b', 'a']);
  t.equal(cycleThrough(new Map([['a', new Map([['b', '']])]]), 'a'), undefined);
});
