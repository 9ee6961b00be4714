// packaging/npd/node-check-plugin.json against node-problem-detector's custom plugin contract
// (kubernetes/node-problem-detector pkg/custompluginmonitor: plugin.go, types/config.go):
// exit 0 OK (condition False), 1 NonOK (condition True), anything else Unknown; the message is
// stdout, at most 4 KiB read, TrimSpace'd, cut at max_output_length BYTES; the rule's timeout may
// not exceed the global one; a permanent rule needs a default condition.
// The rule's exact argv runs for real: `chroot /host /usr/bin/node-check preflight …` where /host
// is a fixture node's root with node-check installed as the RPM installs it, Node.js and its
// libraries bind-mounted in (a private mount namespace), and a stand-in kubelet answering
// `--version` like the real one; the only mapping is /host to that directory.
import t, { type Test } from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import * as net from 'node:net';
import * as os from 'node:os';
import { bundle, repo, NO_CRASH } from '../hostile/bundle.js';
import { requireTools, toolPath } from '../harness/tools.js';

const repoPath = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const FIXTURES = repoPath('test/fixtures/nodes');

interface NpdConfig {
  plugin: string;
  pluginConfig: { invoke_interval: string; timeout: string; max_output_length: number; concurrency: number };
  source: string;
  conditions: { type: string; reason: string; message: string }[];
  rules: { type: string; condition: string; reason: string; path: string; args: string[]; timeout: string }[];
}
const config = JSON.parse(fs.readFileSync(repoPath('packaging/npd/node-check-plugin.json'), 'utf8')) as NpdConfig;
const rule = config.rules[0]!;

/** Go's time.ParseDuration for the forms NPD configs use. */
function seconds(duration: string): number {
  const m = /^(\d+)(ms|s|m|h)$/.exec(duration);
  if (!m) throw new Error(`not a duration NPD reads: ${duration}`);
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600 }[m[2] as 'ms' | 's' | 'm' | 'h'];
}

/** What NPD does with a plugin run: the status from the exit code, the message from stdout. */
function npdResult(exitCode: number | null, stdout: string): { status: 'OK' | 'NonOK' | 'Unknown'; message: Buffer } {
  const read = Buffer.from(stdout, 'utf8').subarray(0, 4096);
  const trimmed = Buffer.from(read.toString('latin1').trim(), 'latin1');
  const message = trimmed.subarray(0, config.pluginConfig.max_output_length);
  return { status: exitCode === 0 ? 'OK' : exitCode === 1 ? 'NonOK' : 'Unknown', message };
}

const KUBELET_VERSION = 'v1.29.6';

/** Directories of the shared libraries (and loader) this Node.js needs, from ldd. */
function nodeLibraryDirs(): string[] {
  const ldd = spawnSync(toolPath('ldd') ?? 'ldd', [process.execPath], { encoding: 'utf8' });
  const files = [...ldd.stdout.matchAll(/(\/\S+\.so[.\d]*)\s/g)].map((m) => m[1]!);
  return [...new Set(files.map((f) => path.dirname(f)))];
}

/**
 * A fixture's root as a running machine would have it: node-check installed as the RPM does, a
 * stand-in kubelet answering --version, stand-ins for the unit's other Exec*= binaries, and the
 * CRI sockets (listening) where kubeadm's and OpenShift's runtimes have them. Under /tmp: a unix
 * socket path must stay under 108 bytes.
 */
function hostRoot(t: Test, fixture: string | undefined): string {
  const at = fs.mkdtempSync(path.join(os.tmpdir(), 'npd-'));
  t.teardown(() => fs.rmSync(at, { recursive: true, force: true }));
  if (fixture) fs.cpSync(fixture, at, { recursive: true, verbatimSymlinks: true });
  const lib = path.join(at, 'usr/lib/node-check');
  fs.mkdirSync(lib, { recursive: true });
  for (const file of ['node-check.cjs', 'node-check.bundle.cjs']) fs.copyFileSync(path.join(repo, 'dist', file), path.join(lib, file));
  fs.chmodSync(path.join(lib, 'node-check.cjs'), 0o755);
  fs.mkdirSync(path.join(at, 'usr/bin'), { recursive: true });
  fs.symlinkSync('../lib/node-check/node-check.cjs', path.join(at, 'usr/bin/node-check'));
  for (const mountPoint of ['usr/bin/node', 'usr/bin/env']) if (!fs.existsSync(path.join(at, mountPoint))) fs.writeFileSync(path.join(at, mountPoint), '');
  const stub = (nodePath: string, body = '') => {
    const file = path.join(at, nodePath);
    if (fs.existsSync(file)) return;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `#!/usr/bin/node\n${body}`, { mode: 0o755 });
  };
  stub('/usr/bin/kubelet', `process.stdout.write('Kubernetes ${KUBELET_VERSION}\\n');\n`);
  for (const dir of ['etc/systemd/system', 'usr/lib/systemd/system', 'lib/systemd/system']) {
    for (const entry of fs.existsSync(path.join(at, dir)) ? fs.readdirSync(path.join(at, dir), { recursive: true, encoding: 'utf8' }) : []) {
      const file = path.join(at, dir, entry);
      if (!entry.startsWith('kubelet.service') || !fs.statSync(file).isFile()) continue;
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/^Exec\w*=[-@:+!]*(\/[^\s\\]+)/gm)) stub(m[1]!);
    }
  }
  for (const socket of ['run/containerd/containerd.sock', 'var/run/crio/crio.sock', 'run/crio/crio.sock']) {
    const file = path.join(at, socket);
    if (fs.existsSync(file)) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const server = net.createServer().listen(file);
    server.unref();
    t.teardown(() => server.close());
  }
  return at;
}

// Node.js, env (the launcher's #!/usr/bin/env node) and their libraries from this machine; /proc,
// /sys and /dev as a hostPath / mount of the host brings them.
// NODE_OPTIONS: tap's process tracking adds its loader to every child; NPD's plugins have none.
const MOUNT_AND_CHROOT = `set -e
unset NODE_OPTIONS
r="$1"; shift
if [ -d "$r/usr/bin" ]; then
  mount --bind "$NODE_BINARY" "$r/usr/bin/node"
  mount --bind /usr/bin/env "$r/usr/bin/env"
  for d in $LIB_DIRS /proc /sys /dev; do mkdir -p "$r$d"; mount --rbind "$d" "$r$d"; done
fi
exec "$@"`;

/** NPD's run of the rule: its path and args verbatim, /host mapped to `root`, in a private mount namespace. */
function runRule(root: string, args: readonly string[] = rule.args) {
  const argv = [rule.path, ...args.map((a) => (a === '/host' ? root : a))];
  const run = spawnSync(toolPath('unshare')!, ['--mount', '--propagation', 'private', 'sh', '-c', MOUNT_AND_CHROOT, 'sh', root, ...argv], {
    encoding: 'utf8',
    env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', NODE_BINARY: process.execPath, LIB_DIRS: nodeLibraryDirs().join(' ') },
    timeout: 60_000,
  });
  return run;
}

t.test('the config as NPD validates it', async (t) => {
  t.equal(config.plugin, 'custom');
  t.same([rule.path, rule.args[0], rule.args[1]], ['/usr/sbin/chroot', '/host', '/usr/bin/node-check'], 'the host\'s node-check, in the host\'s root (kubelet --version can be asked there)');
  t.ok(config.source);
  t.equal(rule.type, 'permanent', 'a Node condition, not an event');
  t.ok(config.conditions.some((c) => c.type === rule.condition), 'the permanent rule\'s condition has a default');
  t.ok(seconds(rule.timeout) <= seconds(config.pluginConfig.timeout), 'rule timeout <= global timeout');
  t.ok(seconds(config.pluginConfig.invoke_interval) >= seconds(config.pluginConfig.timeout), 'one run finishes before the next');
  const budget = Number(rule.args[rule.args.indexOf('--timeout') + 1]);
  t.ok(budget > 0 && budget < seconds(rule.timeout), `node-check's own budget (${budget} s) ends before NPD kills it: an answer, not a timeout`);
  t.ok(rule.args.includes('--no-journal') && rule.args.includes('--no-metrics') && rule.args.includes('--no-fallback'), 'read-only: no journal, no textfile, never the fallback');
  t.equal(rule.args[2], 'preflight', 'preflight: one summary line on stdout, check\'s exit codes');
  t.ok(config.pluginConfig.max_output_length <= 4096, 'NPD reads at most 4 KiB anyway');
});

const CASES = fs.readdirSync(FIXTURES).filter((n) => /^(ocp-|kubeadm-|edge-plugin|start-environment-file-missing|start-node-labels)/.test(n));
const canRun = (t: Test) => requireTools(t, ['unshare', 'mount', 'chroot', 'ldd']) && (process.getuid?.() === 0 || (t.fail('chroot and mount need root'), false));

t.test('every fixture node: the exit code is the prediction, the message one line within max_output_length', async (t) => {
  if (!canRun(t)) return;
  t.ok(CASES.length >= 15, `${CASES.length} fixture nodes`);
  const seen = new Set<string>();
  for (const name of CASES) {
    const root = hostRoot(t, path.join(FIXTURES, name, 'root'));
    const run = runRule(root);
    t.notMatch(run.stderr, NO_CRASH, `${name}: no crash`);
    const json = runRule(root, ['/host', '/usr/bin/node-check', 'check', '-o', 'json']);
    const report = JSON.parse(json.stdout) as { kubeletWillStart: boolean | null; kubeletVersion: string | null };
    t.equal(report.kubeletVersion, KUBELET_VERSION.slice(1), `${name}: kubelet --version asked in the chroot`);
    const expected = report.kubeletWillStart === true ? 0 : report.kubeletWillStart === false ? 1 : 2;
    t.equal(run.status, expected, `${name}: exit ${expected} (kubeletWillStart ${report.kubeletWillStart})`);
    const { status, message } = npdResult(run.status, run.stdout);
    seen.add(status);
    const text = message.toString('utf8');
    t.notMatch(text, /\n/, `${name}: one line`);
    t.match(text, /^node-check: (kubelet is predicted to start|kubelet will NOT start: |cannot tell whether kubelet will start: )/, `${name}: the summary leads`);
    t.notOk(text.includes('\uFFFD'), `${name}: the byte cut does not split a character`);
    if (Buffer.byteLength(run.stdout.trim()) > config.pluginConfig.max_output_length) t.comment(`${name}: message cut at ${config.pluginConfig.max_output_length} bytes (${Buffer.byteLength(run.stdout.trim())})`);
  }
  t.same([...seen].sort(), ['NonOK', 'OK'], 'with the kubelet version known, the fixtures decide both ways (Unknown: below)');
});

t.test('a node that will not start: NonOK, and the message names the finding', async (t) => {
  if (!canRun(t)) return;
  const root = hostRoot(t, path.join(FIXTURES, 'ocp-4.16-azure-rhel8-worker-acr-missing', 'root'));
  const run = runRule(root);
  const { status, message } = npdResult(run.status, run.stdout);
  t.equal(status, 'NonOK');
  t.match(message.toString('utf8'), /^node-check: kubelet will NOT start: .*acr-credential-provider/);
  t.ok(message.length <= config.pluginConfig.max_output_length);
});

t.test('failures of the set-up or of node-check are Unknown, never NonOK: a True condition always means the prediction', async (t) => {
  if (!canRun(t)) return;
  const notMounted = runRule(path.join(t.testdir(), 'no-such-root'));
  t.equal(npdResult(notMounted.status, notMounted.stdout).status, 'Unknown', `/host not mounted: chroot exits ${notMounted.status}`);
  const notInstalled = runRule(t.testdir({ etc: {}, usr: {} }));
  t.equal(npdResult(notInstalled.status, notInstalled.stdout).status, 'Unknown', `node-check not installed: exit ${notInstalled.status}`);
  const noUnit = hostRoot(t, undefined);
  const undecided = runRule(noUnit);
  t.equal(undecided.status, 2, 'no kubelet unit: cannot tell');
  t.equal(npdResult(undecided.status, undecided.stdout).status, 'Unknown');
  const usage = runRule(noUnit, [...rule.args, '--timeout']);
  t.equal(usage.status, 64, 'a usage error is 64');
  t.equal(npdResult(usage.status, usage.stdout).status, 'Unknown');
});
