/**
 * One path resolver for every view of a node's files (src/host/path-walk.ts): RootFs, an
 * OverlayRootFs with no layers and a HidingRootFs that hides nothing answer alike, and alike to
 * the kernel itself, checked in a chroot(2) (python3's os.chroot) where this runs as root.
 */
import t from 'tap';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RootFs } from '../../src/host/root-fs.js';
import { OverlayRootFs } from '../../src/overlay/overlay-root-fs.js';
import { HidingRootFs } from '../../src/fallback/hiding-root-fs.js';
import { toolPath } from '../harness/tools.js';

const RUNS = Number(process.env.NODE_CHECK_PROPERTY_RUNS ?? 60);

type Tree = Record<string, { file: string } | { dir: true } | { link: string }>;

function writeTree(root: string, tree: Tree): void {
  for (const [p, spec] of Object.entries(tree)) {
    const host = path.join(root, p);
    fs.mkdirSync(path.dirname(host), { recursive: true });
    if ('dir' in spec) fs.mkdirSync(host, { recursive: true });
    else if ('file' in spec) fs.writeFileSync(host, spec.file);
    else fs.symlinkSync(spec.link, host);
  }
}

/** Everything a reader asks of a path, in one comparable value. */
function answers(view: RootFs, p: string): unknown {
  const r = view.resolve(p);
  const l = view.resolve(p, false);
  const stat = view.stat(p);
  const lstat = view.lstat(p);
  const read = view.readFile(p, 1024);
  const listed = view.readdir(p);
  return {
    resolve: r.ok ? r.nodePath : r.code,
    resolveEntry: l.ok ? l.nodePath : l.code,
    stat: stat.ok ? [stat.type, stat.size] : stat.code,
    lstat: lstat.ok ? lstat.type : lstat.code,
    read: read.ok ? read.data.toString() : read.code,
    readdir: listed.ok ? listed.entries.map((e) => `${e.name}${e.isDirectory ? '/' : ''}`).sort() : listed.code,
    readlink: view.readlink(p) ?? null,
  };
}

t.test('"l/../x.yaml" with l a link: the same answer with and without an empty overlay, as the kernel gives', async (t) => {
  const root = t.testdir();
  writeTree(root, {
    '/etc/kubernetes/x.yaml': { file: 'wrong: lexical' },
    '/etc/kubernetes/l': { link: '/var/lib/kubelet/conf.d' },
    '/var/lib/kubelet/conf.d/keep': { file: '' },
    '/var/lib/kubelet/x.yaml': { file: 'right: physical' },
  });
  const p = '/etc/kubernetes/l/../x.yaml';
  const base = new RootFs(root);
  const read = base.readFile(p);
  t.equal(read.ok && read.data.toString(), 'right: physical');
  t.same(answers(new OverlayRootFs(base, []), p), answers(base, p));
  t.same(answers(new HidingRootFs(root, []), p), answers(base, p));
  t.same(new OverlayRootFs(base, []).resolve(p), { ok: true, hostPath: path.join(root, '/var/lib/kubelet/x.yaml'), nodePath: '/var/lib/kubelet/x.yaml' });
});

t.test('the kernel rules at the edges: trailing "/", long names, loops, NUL', async (t) => {
  const root = t.testdir();
  writeTree(root, {
    '/d/f': { file: 'x' },
    '/d/ld': { link: '/d' },
    '/d/lf': { link: 'f' },
    '/d/loop': { link: 'loop' },
    '/d/slash': { link: 'f/' },
  });
  for (const view of [new RootFs(root), new OverlayRootFs(new RootFs(root), [])]) {
    t.match(view.stat('/d/f/'), { ok: false, code: 'ENOTDIR' }, 'a file with a trailing slash');
    t.match(view.lstat('/d/ld/'), { ok: true, type: 'directory' }, 'a trailing slash follows the last link');
    t.match(view.lstat('/d/ld'), { ok: true, type: 'symlink' });
    t.match(view.stat('/d/loop'), { ok: false, code: 'ELOOP' });
    t.match(view.stat('/d/slash'), { ok: false, code: 'ENOTDIR' }, 'a target ending in "/" must be a directory');
    t.match(view.stat(`/d/${'n'.repeat(256)}`), { ok: false, code: 'ENAMETOOLONG' });
    t.match(view.stat('/d/f\0'), { ok: false, code: 'EINVAL' });
    t.match(view.stat('/../../d/lf'), { ok: true, type: 'file' }, '".." never climbs above the root');
    t.match(view.resolve('/d/f/..'), { ok: false, code: 'ENOTDIR' });
  }
});

// ---- property: random trees with links and ".." ------------------------------------------

const NAMES = ['a', 'b', 'c'];
const name = fc.constantFrom(...NAMES);
const rel = fc.array(fc.oneof(name, fc.constant('..'), fc.constant('.')), { minLength: 1, maxLength: 4 });
const target = fc.oneof(
  rel.map((parts) => parts.join('/')),
  rel.map((parts) => `/${parts.join('/')}`),
  rel.map((parts) => `${parts.join('/')}/`),
);
const entryPath = fc.array(name, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join('/')}`);
const spec = fc.oneof(fc.constant({ dir: true as const }), fc.string({ maxLength: 3 }).map((file) => ({ file })), target.map((link) => ({ link })));
const tree = fc.array(fc.tuple(entryPath, spec), { minLength: 1, maxLength: 10 });
const query = fc.array(fc.oneof(name, fc.constant('..'), fc.constant('.'), fc.constant('')), { minLength: 0, maxLength: 6 }).map((parts) => `/${parts.join('/')}`);

/** Builds the tree, skipping entries whose parent is not a directory (as a writer would fail there). */
function build(root: string, entries: readonly [string, Tree[string]][]): void {
  for (const [p, s] of entries) {
    const host = path.join(root, p);
    try {
      fs.mkdirSync(path.dirname(host), { recursive: true });
      if (fs.existsSync(host) || isLink(host)) continue;
      if ('dir' in s) fs.mkdirSync(host);
      else if ('file' in s) fs.writeFileSync(host, s.file);
      else fs.symlinkSync(s.link, host);
    } catch {
      // A parent that is a file or a link: skipped.
    }
  }
}

function isLink(host: string): boolean {
  try {
    return fs.lstatSync(host).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Runs `check` on random trees built under a fresh directory each, with random queries. */
function onRandomTrees(t: { testdir(): string; doesNotThrow(fn: () => void): void }, check: (root: string, entries: [string, Tree[string]][], queries: string[]) => boolean) {
  const base = t.testdir();
  let n = 0;
  t.doesNotThrow(() =>
    fc.assert(
      fc.property(tree, fc.array(query, { minLength: 1, maxLength: 8 }), (entries, queries) => {
        const root = path.join(base, String(n++));
        fs.mkdirSync(root);
        build(root, entries);
        return check(root, entries, queries);
      }),
      { numRuns: RUNS },
    ),
  );
}

t.test('property: an overlay with no layers (and a HidingRootFs hiding nothing) answers as RootFs', async (t) => {
  onRandomTrees(t, (root, _entries, queries) => {
        const rootFs = new RootFs(root);
        const overlay = new OverlayRootFs(new RootFs(root), []);
        const hiding = new HidingRootFs(root, []);
        for (const q of queries) {
          const want = JSON.stringify(answers(rootFs, q));
          if (JSON.stringify(answers(overlay, q)) !== want) return false;
          if (JSON.stringify(answers(hiding, q)) !== want) return false;
        }
        return true;
  });
});

const python = toolPath('python3');
/** Whether chroot(2) works here (root, no seccomp in the way). */
const canChroot = python !== undefined && process.getuid?.() === 0 && spawnSync(python, ['-c', 'import os; os.chroot("/")']).status === 0;

/** stat/lstat in a chroot: the kernel's own answer, with the errno name. */
function kernelAnswers(root: string, queries: readonly string[]): { stat: unknown; lstat: unknown }[] {
  const script = `
import os, sys, json, errno, stat
os.chroot(sys.argv[1]); os.chdir('/')
def kind(m):
    return 'file' if stat.S_ISREG(m) else 'directory' if stat.S_ISDIR(m) else 'symlink' if stat.S_ISLNK(m) else 'other'
out = []
for q in json.loads(sys.stdin.read()):
    r = {}
    for name, f in (('stat', os.stat), ('lstat', os.lstat)):
        try: r[name] = kind(f(q).st_mode)
        except OSError as e: r[name] = errno.errorcode[e.errno]
    out.append(r)
print(json.dumps(out))
`;
  const r = spawnSync(python!, ['-c', script, root], { input: JSON.stringify(queries), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

t.test('property: RootFs and the overlay answer stat and lstat as the kernel does in a chroot', { skip: canChroot ? false : 'needs root and chroot(2) (python3 os.chroot)' }, async (t) => {
  onRandomTrees(t, (root, entries, queries) => {
        const kernel = kernelAnswers(root, queries);
        for (const view of [new RootFs(root), new OverlayRootFs(new RootFs(root), [])]) {
          const mine = queries.map((q) => {
            const s = view.stat(q);
            const l = view.lstat(q);
            return { stat: s.ok ? s.type : s.code, lstat: l.ok ? l.type : l.code };
          });
          if (JSON.stringify(mine) !== JSON.stringify(kernel)) {
            throw new Error(`${JSON.stringify(entries)} ${JSON.stringify(queries)}: ${JSON.stringify(mine)} != kernel ${JSON.stringify(kernel)}`);
          }
        }
        return true;
  });
});
