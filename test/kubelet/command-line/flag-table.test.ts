import t from 'tap';
import { kubeletFlagsFor } from '../../../src/kubelet/command-line/flag-table.js';
import { KUBELET_FLAG_SOURCES, kubeletFlagRows } from '../../../src/kubelet/data/kubelet-flags.generated.js';
import { MODELLED_MINORS, NEWEST_MODELLED_MINOR, NEXT_MINOR, OLDEST_MODELLED_MINOR } from '../../../src/kubelet/data/minors.js';

const DATA_NEWEST = Math.max(...Object.keys(KUBELET_FLAG_SOURCES).map(Number));

t.test('every modelled minor has a table, and no other minor has one, even where the data reaches it', async (t) => {
  t.equal(kubeletFlagsFor(OLDEST_MODELLED_MINOR - 1), undefined);
  t.equal(kubeletFlagsFor(NEXT_MINOR), undefined);
  for (const minor of MODELLED_MINORS) t.ok(kubeletFlagsFor(minor), `1.${minor}`);
});

t.test('no minor registers a name twice', async (t) => {
  for (let m = OLDEST_MODELLED_MINOR; m <= DATA_NEWEST; m++) {
    const names = kubeletFlagRows().filter((r) => r.from <= m && m <= r.until).map((r) => r.name);
    t.equal(new Set(names).size, names.length, `1.${m}`);
  }
});

// [flag, last minor that registers it, first minor that does not] (release notes agree:
// kubernetes #106907 for dockershim, CHANGELOG-1.27 #114017/#116015, 1.31 #122082, 1.34 #130161/#122384, 1.35 #133779)
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
  ['experimental-kernel-memcg-notification', 24, 25],
  ['logtostderr', 25, 26],
  ['container-runtime', 26, 27],
  ['master-service-namespace', 26, 27],
  ['azure-container-registry-config', 29, 30],
  ['keep-terminated-pod-volumes', 30, 31],
  ['iptables-masquerade-bit', 30, 31],
  ['iptables-drop-bit', 30, 31],
  ['cloud-config', 33, 34],
  ['register-schedulable', 33, 34],
  ['pod-infra-container-image', 34, 35],
];

for (const [flag, last, first] of REMOVALS) {
  t.test(`--${flag}: registered through 1.${last ?? '23'}, gone from 1.${first}`, async (t) => {
    if (last !== undefined) t.ok(kubeletFlagsFor(last)!.has(flag), `present in 1.${last}`);
    for (let m = first; m <= NEWEST_MODELLED_MINOR; m++) t.notOk(kubeletFlagsFor(m)!.has(flag), `absent from 1.${m}`);
  });
}

t.test('flags that arrive: --config-dir 1.28, --log-text-* 1.30, --fail-cgroupv1 1.31', async (t) => {
  for (const [flag, first] of [['config-dir', 28], ['log-text-split-stream', 30], ['fail-cgroupv1', 31]] as const) {
    t.notOk(kubeletFlagsFor(first - 1)!.has(flag), `not in 1.${first - 1}`);
    for (let m = first; m <= NEWEST_MODELLED_MINOR; m++) t.ok(kubeletFlagsFor(m)!.has(flag), `--${flag} in 1.${m}`);
  }
});

t.test('flag specs: pflag types, shorthands, deprecation, bound config fields', async (t) => {
  const f = kubeletFlagsFor(30)!;
  t.match(f.get('fail-swap-on'), { type: 'bool', noOptDefVal: 'true', configField: 'failSwapOn', group: 'kc' });
  t.match(f.get('fail-swap-on')!.deprecated, /should be set via the config file specified by the Kubelet's --config flag/);
  t.match(f.get('max-pods'), { type: 'int32', configField: 'maxPods' });
  t.match(f.get('pod-max-pids'), { type: 'int64', configField: 'podPidsLimit' });
  t.match(f.get('pod-manifest-path'), { type: 'string', configField: 'staticPodPath' });
  t.match(f.get('anonymous-auth'), { configField: 'authentication.anonymous.enabled' });
  t.match(f.get('sync-frequency'), { type: 'duration', configField: 'syncFrequency' });
  t.match(f.get('register-with-taints'), { type: 'taints', configField: 'registerWithTaints' });
  t.match(f.get('feature-gates'), { type: 'mapStringBool', configField: 'featureGates' });
  t.match(f.get('eviction-hard'), { type: 'langleMapStringString' });
  t.match(f.get('cpu-manager-policy-options'), { type: 'mapStringStringNoSplit' });
  t.match(f.get('reserved-memory'), { type: 'reservedMemory' });
  t.match(f.get('node-labels'), { type: 'configurationMap', group: 'kf' });
  t.equal(f.get('node-labels')!.deprecated, undefined);
  t.match(f.get('v'), { type: 'verbosity', shorthand: 'v', configField: 'logging.verbosity' });
  t.match(f.get('log-text-info-buffer-size'), { type: 'quantity', configField: 'logging.options.text.infoBufferSize' });
  t.equal(f.get('v')!.deprecated, undefined, 'v, vmodule, log-flush-frequency and provider-id are not deprecated');
  t.equal(f.get('provider-id')!.deprecated, undefined);
  t.match(f.get('help'), { shorthand: 'h', type: 'bool' });
  t.match(f.get('version'), { type: 'version', noOptDefVal: 'true' });
  t.equal(f.get('minimum-container-ttl-duration')!.deprecated, 'Use --eviction-hard or --eviction-soft instead. Will be removed in a future version.');
  t.equal(f.get('keep-terminated-pod-volumes')!.deprecated, 'will be removed in a future version');
  t.match(f.get('enable-load-reader'), { type: 'goBool', group: 'cadv', noOptDefVal: 'true' });
  t.match(f.get('housekeeping-interval'), { type: 'goDuration', group: 'cadv' });
  t.equal(f.get('housekeeping-interval')!.deprecated, undefined);
  t.notOk(f.has('docker-only'), 'cadvisor\'s docker flags are not registered by 1.24+');
  // AddKubeletConfigFlags' MarkDeprecated hides them, and its deferred loop replaces the message.
  t.same([...f.values()].filter((spec) => spec.hidden).map((spec) => spec.name), ['iptables-drop-bit', 'iptables-masquerade-bit']);
  t.match(f.get('iptables-masquerade-bit')!.deprecated, /should be set via the config file/);
});

t.test('deprecation messages change with the minor', async (t) => {
  t.equal(kubeletFlagsFor(24)!.get('cloud-provider')!.deprecated, 'will be removed in 1.24 or later, in favor of removing cloud provider code from Kubelet.');
  t.equal(kubeletFlagsFor(28)!.get('cloud-provider')!.deprecated, 'will be removed in 1.25 or later, in favor of removing cloud provider code from Kubelet.');
  t.equal(kubeletFlagsFor(29)!.get('cloud-provider')!.deprecated, undefined);
  t.equal(kubeletFlagsFor(27)!.get('azure-container-registry-config')!.deprecated, undefined);
  t.match(kubeletFlagsFor(28)!.get('azure-container-registry-config')!.deprecated, /^Use --image-credential-provider-config/);
  t.match(kubeletFlagsFor(34)!.get('pod-infra-container-image')!.deprecated, /^will be removed in 1\.35\./);
});

t.test('--container-runtime-endpoint: a KubeletFlags flag through 1.26, a KubeletConfiguration flag from 1.27', async (t) => {
  t.match(kubeletFlagsFor(26)!.get('container-runtime-endpoint'), { group: 'kf' });
  t.equal(kubeletFlagsFor(26)!.get('container-runtime-endpoint')!.deprecated, undefined);
  t.match(kubeletFlagsFor(27)!.get('container-runtime-endpoint'), { group: 'kc', configField: 'containerRuntimeEndpoint' });
});

t.test('klog flags (deprecated) only in 1.24-1.25', async (t) => {
  t.match(kubeletFlagsFor(25)!.get('logtostderr'), { type: 'goBool', group: 'klog', deprecated: /2845-deprecate-klog-specific-flags/ });
  t.match(kubeletFlagsFor(24)!.get('log-file-max-size'), { type: 'goUint64' });
  t.notOk(kubeletFlagsFor(26)!.has('log-dir'));
});
