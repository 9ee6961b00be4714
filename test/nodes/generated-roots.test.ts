/**
 * The false-alarm budget: every healthy node root generated from a distribution's own files
 * (test/fixtures/generated/<distro>/<root>/, case.json as in test/fixtures/README.md) must answer
 * kubeletWillStart true at every minor its source says it ran with. Anything else fails, naming
 * the root and the first error finding (or the undecided reason).
 *
 * Also: the kubeadm roots are what scripts/fixtures/kubeadm.mjs renders. With its inputs on this
 * machine (the kubernetes/release mirror, the Go module cache) they are rendered again and
 * compared; without them (CI), the committed files are checked against the lock's hashes.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const here = path.dirname(fileURLToPath(import.meta.url));
const generatedDir = path.resolve(here, '../fixtures/generated');
const repoRoot = path.resolve(here, '../..');

function listRoots(): { id: string; dir: string }[] {
  if (!fs.existsSync(generatedDir)) return [];
  const out: { id: string; dir: string }[] = [];
  for (const distro of fs.readdirSync(generatedDir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const root of fs.readdirSync(path.join(generatedDir, distro.name), { withFileTypes: true }).filter((e) => e.isDirectory())) {
      const dir = path.join(generatedDir, distro.name, root.name);
      if (fs.existsSync(path.join(dir, 'case.json'))) out.push({ id: `${distro.name}/${root.name}`, dir });
    }
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

const roots = listRoots();
t.ok(roots.some((r) => r.id.startsWith('kubeadm/')), 'generated kubeadm roots exist');

// Each root's answer is the false-alarm budget's (test/nodes/false-alarm-budget.test.ts).

t.test('the generator writes nothing when an input cannot be read', async (t) => {
  const out = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'node-check-kubeadm-'));
  t.teardown(() => fs.rmSync(out, { recursive: true, force: true }));
  fs.writeFileSync(path.join(out, 'kept'), 'x');
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/fixtures/kubeadm.mjs'), '--release-git', path.join(out, 'missing'), '--release-ref', 'v0.21.1', '--out', out], { encoding: 'utf8' });
  t.equal(run.status, 1);
  t.match(run.stderr, /cannot resolve v0\.21\.1 in .*missing.*; nothing was written/);
  t.same(fs.readdirSync(out), ['kept'], 'the output directory is untouched');
});

interface Lock {
  readonly inputs: object;
  readonly outputs: Readonly<Record<string, string>>;
}

interface Generator {
  readonly name: string;
  readonly distro: string;
  /** Where the fetched repository is (an env var can point elsewhere) and the lock field naming its tag. */
  readonly gitDir: string;
  readonly ref: (lock: Lock) => string;
}

const GENERATORS: readonly Generator[] = [
  { name: 'kubeadm', distro: 'kubeadm', gitDir: process.env.NODE_CHECK_RELEASE_GIT ?? '/work/.mirror/kubernetes+release/repo', ref: (lock) => (lock.inputs as { release: { ref: string } }).release.ref },
  { name: 'kind', distro: 'kind', gitDir: process.env.NODE_CHECK_KIND_GIT ?? '/work/.mirror/kubernetes-sigs+kind/repo', ref: (lock) => (lock.inputs as { kind: { ref: string }[] }).kind.map((k) => k.ref).join(',') },
  { name: 'eks-al2023', distro: 'eks-al2023', gitDir: process.env.NODE_CHECK_EKS_AMI_GIT ?? '/work/.mirror/awslabs+amazon-eks-ami/repo', ref: (lock) => (lock.inputs as { eks: { ref: string } }).eks.ref },
  { name: 'eks-al2', distro: 'eks-al2', gitDir: process.env.NODE_CHECK_EKS_AMI_GIT ?? '/work/.mirror/awslabs+amazon-eks-ami/repo', ref: (lock) => (lock.inputs as { eks: { ref: string } }).eks.ref },
  { name: 'kubespray', distro: 'kubespray', gitDir: process.env.NODE_CHECK_KUBESPRAY_GIT ?? '/work/.mirror/kubernetes-sigs+kubespray/repo', ref: (lock) => (lock.inputs as { kubespray: { ref: string } }).kubespray.ref },
  { name: 'image-builder', distro: 'image-builder', gitDir: process.env.NODE_CHECK_IMAGE_BUILDER_GIT ?? '/work/.mirror/kubernetes-sigs+image-builder/repo', ref: (lock) => (lock.inputs as { imageBuilder: { ref: string } }).imageBuilder.ref },
  { name: 'minikube', distro: 'minikube', gitDir: process.env.NODE_CHECK_MINIKUBE_GIT ?? '/work/.mirror/kubernetes+minikube/repo', ref: (lock) => (lock.inputs as { minikube: { ref: string } }).minikube.ref },
  { name: 'aks', distro: 'aks', gitDir: process.env.NODE_CHECK_AGENTBAKER_GIT ?? '/work/.mirror/Azure+AgentBaker/repo', ref: (lock) => (lock.inputs as { agentBaker: { ref: string }[] }).agentBaker.map((a) => a.ref).join(',') },
  // Several release tags; from v1.21.0 also the core-kit tag Twoliter.toml pins (NODE_CHECK_BOTTLEROCKET_CORE_KIT_GIT, else its mirror).
  { name: 'bottlerocket', distro: 'bottlerocket', gitDir: process.env.NODE_CHECK_BOTTLEROCKET_GIT ?? '/work/.mirror/bottlerocket-os+bottlerocket/repo', ref: (lock) => (lock.inputs as { releases: { ref: string }[] }).releases.map((r) => r.ref).join(',') },
  // Rendering runs nodeup's Go in a kops checkout (minutes): only where NODE_CHECK_KOPS_GIT names the mirror; else the lock.
  { name: 'kops', distro: 'kops', gitDir: process.env.NODE_CHECK_KOPS_GIT ?? '', ref: (lock) => (lock.inputs as { kops: { ref: string } }).kops.ref },
  // Read from the Go module cache (k8s.io/kubernetes at the locked versions); its "ref" is the versions rendered.
  { name: 'gce', distro: 'gce', gitDir: process.env.GOMODCACHE ?? path.join(os.homedir(), 'go/pkg/mod'), ref: (lock) => Object.values((lock.inputs as { kubernetes: Record<string, { version: string }> }).kubernetes).map((k) => k.version).join(',') },
];

// @ts-expect-error: a plain .mjs module without types
const lib = (await import('../../scripts/fixtures/render-lib.mjs')) as {
  outputFiles(roots: object): Record<string, { text: string; mode: number }>;
  lockOf(generator: string, inputs: unknown, files: Record<string, { text: string; mode: number }>): Lock;
  lockedHash(file: { text: string | Buffer; mode: number }): string;
};

function committedTree(dir: string): Record<string, { text: Buffer; mode: number }> {
  const out: Record<string, { text: Buffer; mode: number }> = {};
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = { text: fs.readFileSync(p), mode: fs.statSync(p).mode & 0o111 ? 0o755 : 0o644 };
    }
  };
  walk(dir);
  return out;
}

for (const generator of GENERATORS) {
  t.test(`the ${generator.distro} roots are ${generator.name}.mjs's output (rendered again when its inputs are here, else against the lock)`, async (t) => {
    const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, `scripts/fixtures/${generator.name}.lock.json`), 'utf8')) as Lock;
    const committed = committedTree(path.join(generatedDir, generator.distro));
    t.same(Object.keys(committed).sort(), Object.keys(lock.outputs).sort(), 'the committed files are the locked ones, no more, no fewer');
    for (const [file, hash] of Object.entries(lock.outputs)) t.equal(committed[file] && lib.lockedHash(committed[file]!), hash, `${file} matches the lock`);

    const kubernetes = (lock.inputs as { kubernetes?: Record<string, { version: string }> }).kubernetes;
    t.ok(Object.keys(committed).length > 0, `${generator.distro} roots are committed`);
    if (kubernetes) {
      const sourceLock = JSON.parse(fs.readFileSync(path.join(repoRoot, 'scripts/generate/kubernetes-source.lock.json'), 'utf8')) as { minors: Record<string, { kubernetes: { version: string } }> };
      for (const [minor, { version }] of Object.entries(kubernetes)) t.equal(version, sourceLock.minors[minor]?.kubernetes.version, `${minor}: the source read is the locked kubernetes version`);
    }

    if (!fs.existsSync(generator.gitDir)) {
      t.comment(`${generator.gitDir} is absent: the roots were checked against the lock only`);
      return;
    }
    const module = (await import(`../../scripts/fixtures/${generator.name}.mjs`)) as { renderAll(gitDir: string, ref: string): { roots: object; inputs: unknown } };
    let rendered: { roots: object; inputs: unknown };
    try {
      rendered = module.renderAll(generator.gitDir, generator.ref(lock));
    } catch (error) {
      t.comment(`the generator's inputs cannot be read here (${(error as Error).message}): checked against the lock only`);
      return;
    }
    t.throws(() => module.renderAll(generator.gitDir, 'no-such-tag'), /cannot resolve no-such-tag/, 'an input that cannot be read stops the generator');
    const files = lib.outputFiles(rendered.roots);
    for (const [file, { text, mode }] of Object.entries(files)) {
      t.equal(committed[file]?.text.toString('utf8'), text, `${file} renders the same`);
      t.equal(committed[file]?.mode, mode, `${file}: mode`);
    }
    t.same(lib.lockOf(`scripts/fixtures/${generator.name}.mjs`, rendered.inputs, files).inputs, lock.inputs, 'the inputs are the locked ones');
  });
}
