import t from 'tap';
import { flagCertainlyAbsent, flagTableComplete, kubeletFlagsFor } from '../../../src/kubelet/command-line/flag-table.js';

t.test('minors outside 1.24..1.36 have no table', async (t) => {
  t.equal(kubeletFlagsFor(23), undefined);
  t.equal(kubeletFlagsFor(37), undefined);
  t.equal(flagTableComplete(37), false);
  t.ok(kubeletFlagsFor(24));
  t.ok(kubeletFlagsFor(36));
});

t.test('no minor claims a complete table (see PROVENANCE.md)', async (t) => {
  for (let m = 24; m <= 36; m++) t.equal(flagTableComplete(m), false, `1.${m}`);
});

// [flag, last minor that registers it, first minor that does not]
const REMOVALS: [string, number | undefined, number][] = [
  ['experimental-dockershim-root-directory', undefined, 24],
  ['docker-endpoint', undefined, 24],
  ['image-pull-progress-deadline', undefined, 24],
  ['network-plugin', undefined, 24],
  ['cni-conf-dir', undefined, 24],
  ['cni-bin-dir', undefined, 24],
  ['cni-cache-dir', undefined, 24],
  ['network-plugin-mtu', undefined, 24],
  ['dynamic-config-dir', undefined, 24],
  ['container-runtime', 26, 27],
  ['master-service-namespace', 26, 27],
  ['azure-container-registry-config', 29, 30],
  ['keep-terminated-pod-volumes', 30, 31],
  ['cloud-config', 33, 34],
  ['register-schedulable', 33, 34],
  ['pod-infra-container-image', 34, 35],
];

for (const [flag, last, first] of REMOVALS) {
  t.test(`--${flag}: registered through 1.${last ?? '23'}, certainly gone from 1.${first}`, async (t) => {
    if (last !== undefined) {
      t.ok(kubeletFlagsFor(last)!.has(flag), `present in 1.${last}`);
      t.equal(flagCertainlyAbsent(last, flag), undefined);
    }
    for (let m = first; m <= 36; m++) {
      t.notOk(kubeletFlagsFor(m)!.has(flag), `absent from 1.${m}`);
      t.ok(flagCertainlyAbsent(m, flag), `certainly absent from 1.${m}`);
    }
  });
}

t.test('--config-dir arrives in 1.28', async (t) => {
  t.ok(flagCertainlyAbsent(27, 'config-dir'));
  t.ok(kubeletFlagsFor(28)!.has('config-dir'));
  t.equal(flagCertainlyAbsent(28, 'config-dir'), undefined);
});

t.test('--iptables-masquerade-bit: in 1.30, unknown status in 1.31-1.32, gone by 1.33', async (t) => {
  t.ok(kubeletFlagsFor(30)!.has('iptables-masquerade-bit'));
  t.notOk(kubeletFlagsFor(31)!.has('iptables-masquerade-bit'));
  t.equal(flagCertainlyAbsent(31, 'iptables-masquerade-bit'), undefined);
  t.ok(flagCertainlyAbsent(33, 'iptables-masquerade-bit'));
});

t.test('flag specs: pflag types, shorthands, deprecation, bound config fields', async (t) => {
  const f = kubeletFlagsFor(30)!;
  t.match(f.get('fail-swap-on'), { type: 'bool', noOptDefVal: 'true', configField: 'failSwapOn', group: 'kc' });
  t.match(f.get('fail-swap-on')!.deprecated, /should be set via the config file specified by the Kubelet's --config flag/);
  t.match(f.get('max-pods'), { type: 'int32', configField: 'maxPods' });
  t.match(f.get('pod-max-pids'), { type: 'int64', configField: 'podPidsLimit' });
  t.match(f.get('anonymous-auth'), { configField: 'authentication.anonymous.enabled' });
  t.match(f.get('register-with-taints'), { type: 'taints', configField: 'registerWithTaints' });
  t.match(f.get('feature-gates'), { type: 'mapStringBool' });
  t.match(f.get('eviction-hard'), { type: 'langleMapStringString' });
  t.match(f.get('node-labels'), { type: 'configurationMap', group: 'kf' });
  t.equal(f.get('node-labels')!.deprecated, undefined);
  t.match(f.get('v'), { type: 'verbosity', shorthand: 'v' });
  t.equal(f.get('v')!.deprecated, undefined, 'v, vmodule, log-flush-frequency and provider-id are not deprecated');
  t.equal(f.get('provider-id')!.deprecated, undefined);
  t.match(f.get('help'), { shorthand: 'h', type: 'bool' });
  t.match(f.get('version'), { type: 'version', noOptDefVal: 'true' });
  t.equal(f.get('minimum-container-ttl-duration')!.deprecated, 'Use --eviction-hard or --eviction-soft instead. Will be removed in a future version.');
  t.equal(f.get('keep-terminated-pod-volumes')!.deprecated, 'will be removed in a future version');
  t.match(f.get('docker-only'), { type: 'goBool', group: 'cadv' });
  for (const spec of f.values()) t.equal(spec.hidden, false);
});

t.test('logging flags follow component-base: log-text-* from 1.30, klog flags only in 1.24-1.25', async (t) => {
  t.notOk(kubeletFlagsFor(29)!.has('log-text-split-stream'));
  t.ok(kubeletFlagsFor(30)!.has('log-text-split-stream'));
  t.ok(kubeletFlagsFor(25)!.has('logtostderr'));
  t.notOk(kubeletFlagsFor(26)!.has('logtostderr'));
});
