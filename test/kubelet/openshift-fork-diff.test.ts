/**
 * What OpenShift's kubelet fork changes, per release, in the files that decide a start outside the
 * feature gates (src/kubelet/data/openshift-fork-diff.generated.json, written by
 * scripts/generate/openshift-fork-diff.mjs from MicroShift's vendored fork and upstream's tag):
 * every changed line is one of the carries below, each with what node-check does about it. A
 * release that brings another carry fails here until it is modelled or shown to have no effect.
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { OPENSHIFT_KUBELETS } from '../../src/kubelet/data/openshift-feature-gates.generated.js';
import { flavorFlagTable } from '../../src/kubelet/command-line/flag-table.js';

interface FileDiff { readonly fork: readonly string[]; readonly upstream: readonly string[] }
interface Release { readonly microshiftCommit: string; readonly upstream: { readonly version: string; readonly sum: string }; readonly files: Readonly<Record<string, FileDiff>> }
const DIFF = JSON.parse(readFileSync(new URL('../../src/kubelet/data/openshift-fork-diff.generated.json', import.meta.url), 'utf8')) as { files: string[]; releases: Record<string, Release> };
const LOCK = JSON.parse(readFileSync(new URL('../../scripts/generate/openshift-kubelet-source.lock.json', import.meta.url), 'utf8')) as { releases: Record<string, { kubeletMinor: number; kubernetes: string; microshiftCommit: string }> };

interface Carry {
  readonly name: string;
  readonly file: string;
  /** The lines the carry adds (fork) or replaces (upstream). */
  readonly lines: RegExp;
  /** What node-check does: checked for each release that has the carry. */
  readonly treatment: (minor: number) => boolean;
}

const CARRIES: readonly Carry[] = [
  {
    name: 'cadvisor\'s max_housekeeping_interval flag: in the OpenShift flag table (src/kubelet/command-line/flag-table.ts)',
    file: 'cmd/kubelet/app/options/globalflags_linux.go',
    lines: /^register\(global, local, "max_housekeeping_interval"\)$/,
    treatment: (minor) => flavorFlagTable(minor, 'openshift')?.table.has('max-housekeeping-interval') === true,
  },
  {
    name: 'ValidateKubeletFlags skips IsForbiddenOpenshiftLabel\'s node-role labels: the node-label carry (nodeRoleLabels.inAllowedSet false)',
    file: 'cmd/kubelet/app/options/options.go',
    lines: /^(if kubeletapis\.IsForbiddenOpenshiftLabel\(k\) \{|continue|\})$/,
    treatment: (minor) => OPENSHIFT_KUBELETS[minor]?.nodeRoleLabels.inAllowedSet === false,
  },
  {
    name: '--node-ip\'s help text (no behaviour)',
    file: 'cmd/kubelet/app/options/options.go',
    lines: /^fs\.StringVar\(&f\.NodeIP, "node-ip", f\.NodeIP, "[^"]*"\)$/,
    treatment: () => true,
  },
  {
    // run() hands cgroupRoots to cadvisor.New, which watches them; none is checked before
    // "Started kubelet" (cmd/kubelet/app/server.go). Judged: the OpenShift 4.16 kubelet ran every
    // recorded case in a sandbox without an ovs.slice cgroup (test/oracle/verdicts/openshift-4.16.json).
    name: 'run() adds /ovs.slice to the cgroups cadvisor monitors: no effect before "Started kubelet"',
    file: 'cmd/kubelet/app/server.go',
    lines: /^cgroupRoots = append\(cgroupRoots, "\/ovs\.slice"\)$/,
    treatment: () => true,
  },
  {
    name: 'run() installs a no-op OpenTelemetry meter provider: no effect on the start',
    file: 'cmd/kubelet/app/server.go',
    lines: /^("go\.opentelemetry\.io\/otel"|"go\.opentelemetry\.io\/otel\/metric\/noop"|otel\.SetMeterProvider\(noop\.NewMeterProvider\(\)\))$/,
    treatment: () => true,
  },
];

t.test('the diff covers every locked release, each against the upstream tag its fork is based on', async (t) => {
  t.same(Object.keys(DIFF.releases).sort(), Object.keys(LOCK.releases).sort());
  for (const [release, read] of Object.entries(DIFF.releases)) {
    t.equal(read.microshiftCommit, LOCK.releases[release]!.microshiftCommit, `${release}: the locked MicroShift commit`);
    t.equal(read.upstream.version, LOCK.releases[release]!.kubernetes, `${release}: upstream ${read.upstream.version}`);
    t.match(read.upstream.sum, /^h1:/, `${release}: with its go.sum hash`);
  }
});

t.test('validation and defaults: the fork carries nothing at any release', async (t) => {
  for (const [release, read] of Object.entries(DIFF.releases)) {
    for (const file of ['pkg/kubelet/apis/config/validation/validation.go', 'pkg/kubelet/apis/config/validation/validation_linux.go', 'pkg/kubelet/apis/config/v1beta1/defaults.go']) {
      t.notOk(read.files[file], `${release}: ${file} is upstream's`);
    }
  }
});

t.test('every other changed line is a known carry, and node-check treats it so', async (t) => {
  for (const [release, read] of Object.entries(DIFF.releases)) {
    const minor = LOCK.releases[release]!.kubeletMinor;
    for (const [file, diff] of Object.entries(read.files)) {
      for (const line of [...diff.fork, ...diff.upstream]) {
        const carry = CARRIES.find((c) => c.file === file && c.lines.test(line));
        t.ok(carry, `${release} ${file}: "${line.slice(0, 120)}" is ${carry ? carry.name : 'NOT a known carry: model it or show it has no effect'}`);
        if (carry) t.ok(carry.treatment(minor), `${release} (kubelet 1.${minor}): ${carry.name}`);
      }
    }
  }
});

const MICROSHIFT = process.env['MICROSHIFT_GIT_DIR'] || '/work/.mirror/openshift+microshift/repo';
const noMirror = existsSync(MICROSHIFT) ? undefined : `SKIPPED: no openshift/microshift mirror at ${MICROSHIFT} (MICROSHIFT_GIT_DIR); the committed diff is checked above`;
t.test('the committed diff is what the generator reads', { skip: noMirror ?? false }, async (t) => {
  const out = execFileSync(process.execPath, ['scripts/generate/openshift-fork-diff.mjs', '--check', '--git-dir', MICROSHIFT], { encoding: 'utf8' });
  t.equal(out, '');
});
