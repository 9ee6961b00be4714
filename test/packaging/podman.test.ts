// The RHCOS route run for real: packaging/openshift/Containerfile built with podman from a local
// base (the cached Debian root of test/harness/node-root.ts plus this Node.js; no registry is
// reachable), and the wrapper the generated MachineConfig installs run the way kubelet's
// ExecStartPre= runs it, against a stand-in RHCOS host (rhcos-host.sh): the node's files at their
// real paths, its /run, and a real systemd-journald on /run/systemd/journal. Checked: the mounts
// and `--root /host` (node-check reads the host's kubelet unit and provider config), the host
// kubelet's version and settings file, the journal entries, the fallback's writes under the host's
// /run and the reload, the lock judged with the host's pids (--pid=host), --pull=never (no image:
// exit 2 at once), the 10 s budget, and `pull-image`.
//
// What stays a stand-in: the host's `kubelet --version` and `systemctl` (no systemd runs here as
// PID 1; the reload is recorded, not done). podman uses this file's own storage, runtime
// directories and CONTAINERS_CONF (runc, lowered ulimits: Debian's podman 4.3.1 with crun fails on
// hybrid cgroups), and every podman call runs with /run, /var/lib and /var/tmp redirected into this
// file's temp directory (rhcos-host.sh): the machine's own podman state is never touched.
import t, { type Test } from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ensureNodeRoot, librariesMissingForNode, removeTree } from '../harness/node-root.js';
import { missingForNodes, requireTools, skipLoudly, toolPath } from '../harness/tools.js';
import { callsOf, writeStub } from './sandbox.js';

const repoPath = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
/** What the Containerfile copies from the repository (after `node scripts/build.mjs`). */
const BUNDLE = ['dist/node-check.cjs', 'dist/node-check.bundle.cjs', 'dist/node-check.bundle.cjs.map', 'dist/THIRD_PARTY_LICENSES', 'LICENSE'];
const JOURNALD = '/lib/systemd/systemd-journald';
const FIXTURES = repoPath('test/fixtures/nodes');
const WILL_START = 'ocp-4.16-aws-worker'; // kubelet 1.29.6 starts
const PLUGIN_MISSING = 'ocp-4.22-aws-worker-crio-provider-missing'; // kubelet 1.35.0: crio-credential-provider absent
const NO_SUCH_DIGEST = `sha256:${'0'.repeat(64)}`;
const FALLBACK_DROP_IN = 'systemd/system/kubelet.service.d/99-node-check-fallback.conf';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** Every podman command the wrapper ran (arguments joined by spaces). */
  readonly podman: string[];
  readonly systemctl: string[];
}

interface Host {
  /** Runs the installed wrapper with `args` on this host, as kubelet's ExecStartPre= would. */
  wrapper(args: readonly string[], env?: Readonly<Record<string, string>>): Run;
  /** The host's /run. */
  readonly run: string;
  /** node-check's journal entries so far (journalctl -t node-check -o json). */
  journal(): Record<string, string>[];
}

interface Setup {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  /** The test image by digest, as the MachineConfig names it. */
  readonly image: string;
  /** The wrapper as the generated MachineConfig installs it (/usr/local/bin/node-check). */
  readonly wrapper: string;
  /** argv wrapped to run where the images were built (onHost). */
  inBuild(argv: readonly string[]): string[];
}

/**
 * Runs `argv` with podman's host paths (/run, /var/lib, /var/tmp) redirected into `scratch`, and
 * `files` over /etc and /usr (rhcos-host.sh): every podman call of this file goes through here.
 */
function onHost(files: string, scratch: string, argv: readonly string[]): string[] {
  mkdirSync(join(scratch, 'run'), { recursive: true });
  mkdirSync(join(scratch, 'var'), { recursive: true });
  mkdirSync(files, { recursive: true });
  return [toolPath('unshare')!, '--mount', '--propagation', 'private', toolPath('bash')!, repoPath('test/packaging/rhcos-host.sh'), files, join(scratch, 'run'), join(scratch, 'var'), ...argv];
}

function sh(argv: readonly string[], env: NodeJS.ProcessEnv, what: string, input?: string): string {
  const result = spawnSync(argv[0]!, argv.slice(1), { env, encoding: 'utf8', timeout: 180_000, input: input ?? '', maxBuffer: 64 << 20 });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status}):\n${result.stderr.split('\n').slice(-20).join('\n')}`);
  return result.stdout;
}

/** A podman storage, runtime and configuration of this test's own, under `dir`. */
function podmanEnv(dir: string, bin: string): NodeJS.ProcessEnv {
  writeFileSync(
    join(dir, 'containers.conf'),
    [
      '[containers]',
      'default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]',
      '[engine]',
      'runtime = "runc"',
      `tmp_dir = "${dir}/libpod"`,
      'events_logger = "none"',
      '',
    ].join('\n'),
  );
  // overlay cannot stack on an overlay (a containerised CI): vfs there works, but copies the root
  // for every container (measured on ext4: build 60 s instead of 2 s, each run 6 s instead of 0.5 s).
  const fsType = spawnSync(toolPath('stat')!, ['-f', '-c', '%T', dir], { encoding: 'utf8' }).stdout.trim();
  const driver = fsType === 'overlayfs' ? 'vfs' : 'overlay';
  writeFileSync(join(dir, 'storage.conf'), ['[storage]', `driver = "${driver}"`, `graphroot = "${dir}/graph"`, `runroot = "${dir}/runroot"`, ''].join('\n'));
  return {
    PATH: `${bin}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
    HOME: dir,
    CONTAINERS_CONF: join(dir, 'containers.conf'),
    CONTAINERS_STORAGE_CONF: join(dir, 'storage.conf'),
  };
}

/** Builds the base (Debian root + Node.js), the image, and the MachineConfig's wrapper. */
async function setUp(t: Test): Promise<Setup | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'node-check-podman-'));
  t.teardown(() => removeTree(dir));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const podman = toolPath('podman')!;
  // A recorder in front of the real podman: which podman commands the wrapper ran.
  writeStub(bin, 'podman', { body: `exec ${podman} "$@"` });
  const env = podmanEnv(dir, bin);

  const root = await ensureNodeRoot();
  const missing = await librariesMissingForNode(root.dir);
  if (missing.length > 0) {
    t.fail(`${process.execPath} needs libraries the Debian root lacks: ${missing.join(', ')}`);
    return undefined;
  }
  const started = Date.now();
  const build = join(dir, 'build');
  const inBuild = (argv: readonly string[]) => onHost(join(build, 'files'), build, argv);
  // The base: the cached root plus this Node.js as /usr/bin/node, imported as one layer.
  sh(
    inBuild(['/bin/bash', '-o', 'pipefail', '-c', 'tar -C "$1" -c . -C "$2" --transform "s|^$3\\$|usr/bin/node|" "$3" | podman import - localhost/node-check-test-base:latest >/dev/null', 'import', root.dir, dirname(process.execPath), basename(process.execPath)]),
    env,
    'podman import of the base',
  );
  const context = join(dir, 'context');
  mkdirSync(join(context, 'dist'), { recursive: true });
  for (const file of BUNDLE) cpSync(repoPath(file), join(context, file));
  const buildImage = (tag: string, containerfile: string, args: readonly string[] = []) =>
    sh(inBuild([podman, 'build', '--pull=never', '--network=none', '--quiet', ...args, '-f', containerfile, '-t', tag, context]), env, `podman build ${tag}`);
  buildImage('localhost/node-check:test', repoPath('packaging/openshift/Containerfile'), ['--build-arg', 'BASE=localhost/node-check-test-base:latest']);
  // The same image whose node-check never answers: for the budget.
  writeFileSync(join(dir, 'Containerfile.hang'), 'FROM localhost/node-check:test\nENTRYPOINT ["/bin/sh", "-c", "sleep 60", "--"]\n');
  buildImage('localhost/node-check-hang:test', join(dir, 'Containerfile.hang'));
  t.comment(`base imported and images built in ${Date.now() - started} ms`);

  const digest = sh(inBuild([podman, 'image', 'inspect', '--format', '{{.Digest}}', 'localhost/node-check:test']), env, 'podman image inspect').trim();
  t.match(digest, /^sha256:[0-9a-f]{64}$/, 'the built image has a digest');
  const image = `localhost/node-check@${digest}`;

  // The wrapper exactly as the MachineConfig generated for this image installs it.
  const generated = sh([process.execPath, repoPath('scripts/gen-openshift.mjs'), '--image', image], process.env, 'gen-openshift.mjs');
  const files = (parse(generated) as { spec: { config: { storage: { files: { path: string; contents: { source: string } }[] } } } }).spec.config.storage.files;
  const source = files.find((f) => f.path === '/usr/local/bin/node-check')!.contents.source;
  const wrapper = join(dir, 'node-check');
  writeFileSync(wrapper, Buffer.from(source.replace(/^data:[^,]*;base64,/, ''), 'base64'));
  chmodSync(wrapper, 0o755);
  return { dir, env, image, wrapper, inBuild };
}

/** A stand-in RHCOS host: a node fixture's files, a kubelet that prints `kubeletVersion`, an empty /run. */
function makeHost(t: Test, setup: Setup, name: string, fixture: string, kubeletVersion: string, extraFiles: Readonly<Record<string, string>> = {}): Host {
  const dir = join(setup.dir, name);
  const files = join(dir, 'files');
  const run = join(dir, 'run');
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  mkdirSync(run);
  cpSync(join(FIXTURES, fixture, 'root'), files, { recursive: true });
  // kubelet and the kubenswrapper the unit's ExecStart= names, where the host has them.
  const kubelet = `#!/bin/sh\necho 'Kubernetes v${kubeletVersion}'\n`;
  for (const [path, text] of [['usr/bin/kubelet', kubelet], ['usr/local/bin/kubenswrapper', '#!/bin/sh\nexec /usr/bin/kubelet "$@"\n']] as const) {
    mkdirSync(dirname(join(files, path)), { recursive: true });
    writeFileSync(join(files, path), text, { mode: 0o755 });
  }
  for (const [path, text] of Object.entries(extraFiles)) {
    mkdirSync(dirname(join(files, path)), { recursive: true });
    writeFileSync(join(files, path), text);
  }
  // The wrapper asks `kubelet --version` on PATH, as on RHCOS; systemctl only records.
  writeStub(bin, 'kubelet', { body: `echo 'Kubernetes v${kubeletVersion}'` });
  writeStub(bin, 'systemctl');
  const podmanDir = join(setup.dir, 'bin');
  return {
    run,
    wrapper(args, env = {}) {
      const podmanBefore = callsOf(podmanDir, 'podman').length;
      const systemctlBefore = callsOf(bin, 'systemctl').length;
      const started = Date.now();
      const [file, ...argv] = onHost(files, dir, [toolPath('bash')!, setup.wrapper, ...args]);
      const result = spawnSync(file!, argv, { env: { ...setup.env, PATH: `${bin}:${setup.env.PATH}`, ...env }, encoding: 'utf8', timeout: 120_000 });
      if (result.error) throw result.error;
      return {
        code: result.status,
        stdout: result.stdout,
        stderr: result.stderr,
        ms: Date.now() - started,
        podman: callsOf(podmanDir, 'podman').slice(podmanBefore),
        systemctl: callsOf(bin, 'systemctl').slice(systemctlBefore),
      };
    },
    journal() {
      const journalDir = join(run, 'log', 'journal');
      if (!existsSync(journalDir)) return [];
      const out = sh([toolPath('journalctl')!, '-D', journalDir, '-t', 'node-check', '-o', 'json', '--no-pager'], process.env, 'journalctl');
      return out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, string>);
    },
  };
}

const TOOLS = ['podman', 'runc', 'stat', 'unshare', 'mount', 'tar', 'journalctl', 'bash', 'timeout', 'cksum'];

t.test('the RHCOS image and wrapper, with real podman and journald', async (t) => {
  if (!requireTools(t, TOOLS)) return;
  const missingForRoot = missingForNodes().filter((m) => /debootstrap|root privileges/.test(m));
  if (!existsSync(JOURNALD)) missingForRoot.push(JOURNALD);
  if (missingForRoot.length > 0) {
    skipLoudly(t, missingForRoot.join(', '));
    return;
  }
  for (const file of BUNDLE) {
    if (!existsSync(repoPath(file))) {
      t.fail(`${file} is missing: run node scripts/build.mjs first`);
      return;
    }
  }
  const setup = await setUp(t);
  if (setup === undefined) return;

  t.test('the image: node-check, its source map and licences, logger, the warmed code cache', async (t) => {
    const inImage = (script: string) =>
      sh(setup.inBuild([toolPath('podman')!, 'run', '--rm', '--pull=never', '--net=none', '--entrypoint', '/bin/sh', setup.image, '-c', script]), setup.env, 'podman run');
    t.equal(inImage('node-check --version').trim(), (JSON.parse(readFileSync(repoPath('package.json'), 'utf8')) as { version: string }).version, 'node-check --version');
    t.equal(inImage('cat /usr/share/licenses/node-check/THIRD_PARTY_LICENSES'), readFileSync(repoPath('dist/THIRD_PARTY_LICENSES'), 'utf8'), 'THIRD_PARTY_LICENSES');
    t.equal(inImage('cat /usr/share/licenses/node-check/LICENSE'), readFileSync(repoPath('LICENSE'), 'utf8'), 'LICENSE');
    t.equal(inImage('wc -c < /usr/lib/node-check/node-check.bundle.cjs.map').trim(), String(statSync(repoPath('dist/node-check.bundle.cjs.map')).size), 'the source map');
    t.match(inImage('logger --help'), /--journald/, 'logger --journald');
    t.match(inImage('ls /var/cache/node-check'), /\.preflight\..*\.v8cache/, 'preflight\'s V8 code cache, made at build time');
  });

  t.test('a node whose kubelet will start: exit 0, within the budget', async (t) => {
    const host = makeHost(t, setup, 'starts', WILL_START, '1.29.6');
    const run = host.wrapper(['preflight', '--no-metrics']);
    t.equal(run.code, 0, 'exit 0');
    t.match(run.stdout, /kubelet is predicted to start/, 'the verdict on stdout (kubelet\'s journal)');
    t.ok(run.ms < 10_000, `answered in ${run.ms} ms`);
    const podmanRun = run.podman.find((c) => c.startsWith('run '));
    t.ok(podmanRun?.includes(' --pull=never '), 'podman run --pull=never');
    t.ok(podmanRun?.includes(` ${setup.image} preflight --no-metrics --root /host --kubelet-version Kubernetes v1.29.6`), `the image by digest, --root /host and the host kubelet's version: ${podmanRun ?? 'no podman run'}`);
    t.notOk(run.podman.some((c) => c.startsWith('pull ')), 'nothing pulled');
    t.same(run.systemctl, [], 'no fallback change: no reload');
  });

  t.test('a node with a missing plugin: journal entries, the fallback under the host\'s /run, the reload', async (t) => {
    const host = makeHost(t, setup, 'plugin-missing', PLUGIN_MISSING, '1.35.0');
    const verdict = host.wrapper(['preflight', '--no-metrics']);
    t.equal(verdict.code, 1, 'kubelet will not start: 1');
    t.match(verdict.stderr + verdict.stdout, /crio-credential-provider/, 'names the missing provider');
    const entries = host.journal();
    const finding = entries.find((e) => e.NODE_CHECK_FINDING_ID === 'plugin-binary-missing');
    t.ok(finding, `journald got the finding (${entries.map((e) => e.NODE_CHECK_FINDING_ID).join(', ')})`);
    t.equal(finding?.SYSLOG_IDENTIFIER, 'node-check', 'journalctl -t node-check finds it');
    t.equal(finding?._TRANSPORT, 'journal', 'through the native journal socket');
    t.equal(finding?.NODE_CHECK_KUBELET_VERSION, '1.35.0', 'the host kubelet\'s version, passed by the wrapper');
    // Read through --root /host: the host's files, named by their paths on the node.
    t.equal(finding?.NODE_CHECK_PATH, '/usr/libexec/kubelet-image-credential-provider-plugins/crio-credential-provider', 'the path on the node');
    t.same(verdict.systemctl, [], 'no fallback asked: no reload');
    t.notOk(existsSync(join(host.run, FALLBACK_DROP_IN)));

    const applied = host.wrapper(['preflight', '--no-metrics', '--fallback']);
    t.equal(applied.code, 0, 'the fallback lets kubelet start');
    t.same(applied.systemctl, ['daemon-reload'], 'a new fallback drop-in: the wrapper reloads systemd on the host');
    const dropIn = join(host.run, FALLBACK_DROP_IN);
    t.ok(existsSync(dropIn), 'the drop-in is in the host\'s /run');
    t.equal(statSync(dropIn).mode & 0o777, 0o600, 'mode 0600, as on any root (it copies ExecStart=)');
    const providerConfig = /--image-credential-provider-config=(\S+)/.exec(readFileSync(dropIn, 'utf8'))?.[1];
    t.equal(providerConfig, '/run/node-check/credential-providers/kubelet.service.yaml', 'names a node path, not /host/...');
    t.ok(existsSync(join(host.run, 'node-check/credential-providers/kubelet.service.yaml')), 'and that file is in the host\'s /run too');
    const filtered = parse(readFileSync(join(host.run, 'node-check/credential-providers/kubelet.service.yaml'), 'utf8')) as { providers: { name: string }[] };
    t.same(filtered.providers.map((p) => p.name), ['ecr-credential-provider'], 'without the missing provider');
    t.ok(existsSync(join(host.run, 'node-check/fallback.json')), 'the fallback\'s state is in the host\'s /run');

    const kept = host.wrapper(['preflight', '--no-metrics', '--fallback']);
    t.equal(kept.code, 0, 'preflight again, fallback still needed');
    t.same(kept.systemctl, [], 'the fallback kept as it is: no reload');

    const status = host.wrapper(['fallback', 'status', '-o', 'json']);
    t.match(status.stdout, /crio-credential-provider/, 'fallback status reads the host\'s /run');

    const reverted = host.wrapper(['fallback', 'revert']);
    t.equal(reverted.code, 0, 'fallback revert');
    t.notOk(existsSync(dropIn), 'revert removed the drop-in from the host\'s /run');
    t.same(reverted.systemctl, ['daemon-reload'], 'and the wrapper reloaded systemd');
  });

  t.test('the host\'s settings file, and the lock in the host\'s /run judged with the host\'s pids', async (t) => {
    // fallback and a 1 s budget come from the host's /etc/node-check/config.yaml, which the
    // wrapper passes as --config-file /host/etc/node-check/config.yaml.
    const host = makeHost(t, setup, 'locked', PLUGIN_MISSING, '1.35.0', { 'etc/node-check/config.yaml': 'timeoutSeconds: 1\nfallback: true\n' });
    // A lock held by a live process of this host: with --pid=host, node-check in the container
    // sees that process and waits; in a pid namespace of its own it would take the lock as stale.
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    t.teardown(() => holder.kill('SIGKILL'));
    const startTime = readFileSync(`/proc/${holder.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
    const lock = JSON.stringify({ pid: holder.pid, startTime, createdAt: new Date().toISOString(), token: 'test' });
    mkdirSync(join(host.run, 'node-check'));
    writeFileSync(join(host.run, 'node-check/lock'), lock);

    const waited = host.wrapper(['preflight', '--no-metrics']);
    t.equal(waited.code, 2, 'the lock is held: cannot tell');
    t.match(waited.stderr, /ran out of its 1 s budget/, 'within the settings file\'s budget');
    t.equal(readFileSync(join(host.run, 'node-check/lock'), 'utf8'), lock, 'the live holder\'s lock is left alone');
    t.notOk(existsSync(join(host.run, FALLBACK_DROP_IN)), 'no fallback meanwhile');

    holder.kill('SIGKILL');
    await once(holder, 'exit');
    const applied = host.wrapper(['preflight', '--no-metrics']);
    t.equal(applied.code, 0, 'its holder gone, the lock is stale: the fallback (from the settings file) is applied');
    t.ok(existsSync(join(host.run, FALLBACK_DROP_IN)));
    t.same(applied.systemctl, ['daemon-reload']);
    t.notOk(existsSync(join(host.run, 'node-check/lock')), 'and the lock released');
  });

  t.test('no image on the node: "cannot tell" (2) at once, nothing pulled', async (t) => {
    const host = makeHost(t, setup, 'no-image', WILL_START, '1.29.6');
    const run = host.wrapper(['preflight', '--no-metrics'], { NODE_CHECK_IMAGE: `localhost/node-check@${NO_SUCH_DIGEST}` });
    t.equal(run.code, 2, 'cannot tell');
    t.ok(run.ms < 5_000, `gave up in ${run.ms} ms`);
    t.match(run.stderr, /^node-check: image localhost\/node-check@sha256:0+ is not on this node; node-check-image-pull\.service pulls it/m);
    t.notOk(run.podman.some((c) => c.startsWith('pull ')), 'never pulls on kubelet\'s start path');
    t.same(run.systemctl, [], 'no reload');
  });

  t.test('node-check that never answers is cut at the budget: 2', async (t) => {
    const host = makeHost(t, setup, 'hangs', WILL_START, '1.29.6');
    const run = host.wrapper(['preflight', '--no-metrics'], { NODE_CHECK_IMAGE: 'localhost/node-check-hang:test', NODE_CHECK_PODMAN_TIMEOUT: '2' });
    t.equal(run.code, 2, 'cannot tell');
    t.ok(run.ms >= 2_000 && run.ms < 6_000, `stopped after ${run.ms} ms (budget 2 s)`);
    t.match(run.stderr, /^node-check: no answer within 2 s/m, 'says why');
  });

  t.test('pull-image: nothing to do when the image is here; bounded retries when the registry is not', async (t) => {
    const host = makeHost(t, setup, 'pull', WILL_START, '1.29.6');
    const present = host.wrapper(['pull-image']);
    t.equal(present.code, 0, 'present: exit 0');
    t.same(present.podman, [`image exists ${setup.image}`], 'no registry asked');

    const unreachable = `localhost:9/node-check@${NO_SUCH_DIGEST}`;
    const failed = host.wrapper(['pull-image'], { NODE_CHECK_IMAGE: unreachable, NODE_CHECK_PULL_PAUSE: '0' });
    t.equal(failed.code, 1, 'the pull unit fails (kubelet starts anyway: nothing Requires= it)');
    t.same(failed.podman.filter((c) => c.startsWith('pull ')), Array(3).fill(`pull --quiet ${unreachable}`), 'three attempts');
    t.match(failed.stderr, /^node-check: could not pull localhost:9\/node-check@sha256:0+ \(3 attempts\)/m, 'says what it could not pull');
  });
});
