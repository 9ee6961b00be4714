/** The differential oracle's Go-free half: kubelet's output made into verdict words, and the comparison's refusal of stale verdicts. */
import t from 'tap';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeOutput, VERDICTS_DIR } from './verdicts.mjs';

const COMPARE = fileURLToPath(new URL('../../scripts/oracle/compare.mjs', import.meta.url));

t.test('a klog error line: header removed, err value unquoted', async (t) => {
  const out = normalizeOutput([
    'I1201 19:30:01.000001    7 server.go:486] "Kubelet version" kubeletVersion="v1.31.14"',
    'E1201 19:30:01.000002    7 run.go:72] "command failed" err="failed to parse kubelet flag: unknown flag: --node-lables \\"x\\""',
  ].join('\n'));
  t.equal(out.logLine, '"command failed" err="failed to parse kubelet flag: unknown flag: --node-lables \\"x\\""');
  t.equal(out.error, 'failed to parse kubelet flag: unknown flag: --node-lables "x"');
});

t.test("klog's multi-line value form is kept as the journal shows it", async (t) => {
  const out = normalizeOutput(['E1201 19:30:01.000002    7 run.go:72] "command failed" err=<', '\tfirst line', '\tsecond line', ' >', ''].join('\n'));
  t.equal(out.error, 'first line\nsecond line');
  t.equal(out.logLine, '"command failed" err=<\n\tfirst line\n\tsecond line\n >');
});

t.test("cobra's Error: line (before logging is set up) decides over later lines", async (t) => {
  const out = normalizeOutput('Error: unknown command "x" for "kubelet"\nE1201 19:30:01.000002    7 run.go:72] "other"\n');
  t.equal(out.logLine, 'Error: unknown command "x" for "kubelet"');
  t.equal(out.error, 'unknown command "x" for "kubelet"');
});

t.test("cobra's multi-line Error: goes on to the next klog line (kubelet 1.24's --node-labels error)", async (t) => {
  const out = normalizeOutput('Error: first line\nsecond line\nUsage:\n  kubelet [flags]\n\nFlags:\n      --vmodule pattern=N  usage\n\nError: first line\nsecond line\n');
  t.equal(out.logLine, 'Error: first line\nsecond line');
  t.equal(out.error, 'first line\nsecond line');
});

t.test('the line kubelet exits on decides over error lines other goroutines write after it', async (t) => {
  const out = normalizeOutput([
    'E1201 19:30:01.000001    7 kuberuntime_manager.go:254] "Failed to register CRI auth plugins" err="duplicate provider"',
    'E1201 19:30:01.000002    7 reflector.go:167] k8s.io/client-go@v0.0.0/tools/cache/reflector.go:167: Failed to watch *v1.Service: connection refused',
    'E1201 19:30:01.000003    7 kubelet.go:2400] "Error getting node" err="node not found"',
  ].join('\n'));
  t.equal(out.logLine, '"Failed to register CRI auth plugins" err="duplicate provider"');
  const noise = normalizeOutput('E1201 19:30:01.000001    7 x.go:1] "Some error" err="a"\nE1201 19:30:01.000002    7 reflector.go:167] k8s.io/client-go@v0.0.0/tools/cache/reflector.go:167: Failed to watch\n');
  t.equal(noise.error, 'a', "a reflector's failure is never the deciding line");
});

/** The comparison run on a copy of one recording in which one judged verdict's input hash is wrong. */
function compareWithStaleVerdict(t: { testdir: () => string }, file: string): { run: SpawnSyncReturns<string>; id: string } {
  const dir = t.testdir();
  copyFileSync(join(VERDICTS_DIR, file), join(dir, file));
  const recording = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { results: Record<string, { caseHash: string; outcome: string }> };
  const [id, verdict] = Object.entries(recording.results).find(([, v]) => v.outcome !== 'not-judged')!;
  verdict.caseHash = `sha256:${'0'.repeat(64)}`;
  writeFileSync(join(dir, file), JSON.stringify(recording));
  // The comparison is a script of its own, outside the coverage tap measures for src/.
  const { NODE_V8_COVERAGE: _coverage, ...env } = process.env;
  return { run: spawnSync(process.execPath, [COMPARE], { encoding: 'utf8', env: { ...env, NODE_CHECK_ORACLE_VERDICTS: dir }, timeout: 240_000 }), id };
}

const recorded = existsSync(VERDICTS_DIR) ? readdirSync(VERDICTS_DIR).filter((f) => /^1\.\d+\.json$/.test(f)) : [];
t.test('a verdict recorded for other inputs is stale, and fails the comparison', { skip: recorded.length === 0 ? 'no recorded verdicts' : false }, async (t) => {
  const file = recorded[0]!;
  const { run, id } = compareWithStaleVerdict(t, file);
  t.equal(run.status, 1);
  t.match(run.stdout, new RegExp(`  ${id.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: stale: `));
  t.match(run.stdout, new RegExp(`^kubelet ${file.slice(0, -5).replace('.', '\\.')}: \\d+/\\d+ verdicts agree \\(\\d+ judged by the real kubelet binary\\)$`, 'm'));
  t.match(run.stdout, /^\d+\/\d+ oracle verdicts agree\n$/m);
});

t.test("host facts come from the given HostIo for any root (the sandbox's recorded host)", async (t) => {
  const { checkNode } = await import('../../src/check-node.js');
  const root = t.testdir({
    usr: { lib: { systemd: { system: { 'kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml --container-runtime-endpoint=unix:///run/containerd/containerd.sock\n' } } } },
    var: { lib: { kubelet: { 'config.yaml': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: cgroupfs\n' } } },
  });
  const host = (swaps: string) => ({
    readFile: (file: string) => (file === '/proc/swaps' ? { ok: true as const, text: swaps } : file === '/sys/devices/system/cpu/online' ? { ok: true as const, text: '0-1\n' } : { ok: false as const, code: 'ENOENT' }),
    stat: (file: string) => (file === '/run/containerd/containerd.sock' ? { ok: true as const, type: 'socket' as const } : { ok: false as const, code: 'ENOENT' }),
    statfsType: () => 0x63677270,
  });
  const header = 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n';
  const withSwap = await checkNode({ root, unit: 'kubelet.service', kubeletVersion: '1.31.14', hostIo: host(`${header}/swapfile file 1048572 0 -2\n`) });
  t.equal(withSwap.kubeletWillStart, false, 'swap on and failSwapOn (default true): kubelet exits');
  t.notOk(withSwap.notChecked?.some((n) => n.fact === 'swaps'), 'swap was read, not "not checked"');
  const noSwap = await checkNode({ root, unit: 'kubelet.service', kubeletVersion: '1.31.14', hostIo: host(header) });
  t.not(noSwap.findings.find((f) => f.severity === 'error')?.id, withSwap.findings.find((f) => f.severity === 'error')?.id);
});

t.test("OpenShift's cases: the release's MCO roots, its demo node, and variants of its rendered worker", async (t) => {
  const { openshiftCasesFor, materializeCase } = await import('./cases.mjs');
  const cases = openshiftCasesFor('4.16');
  const ids = cases.map((c) => c.id);
  t.equal(new Set(ids).size, ids.length, 'ids are unique');
  t.equal(new Set(cases.map((c) => c.hash)).size, cases.length, 'no two cases have the same files');
  t.ok(ids.includes('mco/ocp-4.16-aws-worker') && ids.includes('example/ocp-4.16-azure-rhel8-worker'));
  t.notOk(ids.some((id) => id.startsWith('mco/ocp-4.18-')), "another release's roots are not this release's");
  const missing = cases.find((c) => c.id === 'generated/openshift/credential-plugin-missing')!;
  const plugin = 'usr/libexec/kubelet-image-credential-provider-plugins/ecr-credential-provider';
  t.ok(existsSync(join(missing.root!, plugin)), 'the rendered root has the plugin');
  const { root, cleanup } = materializeCase(missing);
  try {
    t.notOk(existsSync(join(root, plugin)), 'the variant takes it away');
    t.equal(JSON.parse(readFileSync(join(root, 'etc/kubernetes/kubelet.conf'), 'utf8')).protectKernelDefaults, false, "the variants' base does not require the sandbox's kernel tunables");
  } finally {
    cleanup();
  }
  const rendered = cases.find((c) => c.id === 'mco/ocp-4.16-aws-worker')!;
  t.equal(JSON.parse(readFileSync(join(rendered.root!, 'etc/kubernetes/kubelet.conf'), 'utf8')).protectKernelDefaults, true, 'the rendered root keeps what the MCO writes');
});

t.test('kubelet started and node-check fails only after "Started kubelet": agreement on what the oracle sees, marked', async (t) => {
  const { compareCase } = await import('../../scripts/oracle/compare.mjs');
  const { openshiftCasesFor } = await import('./cases.mjs');
  const kase = openshiftCasesFor('4.16').find((c) => c.id === 'mco/ocp-4.16-aws-worker')!;
  const { HOST_FINDING } = await import('../../src/host-facts/check-host.js');
  const answering = (ids: string[]) => ({ HOST_FINDING, checkNode: async () => ({ kubeletWillStart: false, findings: ids.map((id) => ({ id, severity: 'error' })) }) });
  const recording = { kubelet: 'v1.29.14', hostIo: { files: {}, statfs: {} } };
  const started = { caseHash: kase.hash, outcome: 'started', criEndpoints: [] };
  const afterStart = await compareCase(answering([HOST_FINDING.kernelTunables]), recording, kase, started);
  t.same([afterStart.agree, afterStart.unseen], [true, HOST_FINDING.kernelTunables]);
  const before = await compareCase(answering([HOST_FINDING.kernelTunables, 'kubelet-flag-unknown']), recording, kase, started);
  t.equal(before.agree, false, 'an error before "Started kubelet" beside it is a disagreement');
  t.match(before.problem, /kubelet started; node-check: kubeletWillStart false/);
});

const openshiftRecorded = existsSync(VERDICTS_DIR) ? readdirSync(VERDICTS_DIR).filter((f) => /^openshift-\d+\.\d+\.json$/.test(f)) : [];
t.test("OpenShift's recordings get their own line, in the total, and fail on a stale verdict", { skip: openshiftRecorded.length === 0 ? 'no OpenShift recording' : false }, async (t) => {
  const file = openshiftRecorded[0]!;
  const { run, id } = compareWithStaleVerdict(t, file);
  t.equal(run.status, 1);
  t.match(run.stdout, `  ${id}: stale: `);
  const release = file.slice('openshift-'.length, -'.json'.length).replace('.', '\\.');
  t.match(run.stdout, new RegExp(`^openshift ${release} \\(kubelet 1\\.\\d+\\): (\\d+)/\\d+ verdicts agree \\(\\d+ judged by the real kubelet binary\\)\\n(\\d+)/\\d+ oracle verdicts agree\\n$`, 'm'));
});
