import t from 'tap';
import { kubeletFlagsFor } from '../../../src/kubelet/command-line/flag-table.js';
import { parseKubeletCommandLine, withKubeletParsePrefix, type CommandLineParse } from '../../../src/kubelet/command-line/parse-command-line.js';
import { MODELLED_MINORS, NEWEST_MODELLED_MINOR, NEXT_MINOR } from '../../../src/kubelet/data/minors.js';

const CRI = '--container-runtime-endpoint=unix:///run/containerd/containerd.sock';

function err(r: CommandLineParse): { error: string; kind: string; flag?: string; inexact?: boolean } | undefined {
  return r.ok === false ? { error: r.error, kind: r.kind, ...(r.flag !== undefined ? { flag: r.flag } : {}), ...(r.inexact ? { inexact: true } : {}) } : undefined;
}

t.test('a removed flag: accepted on the last minor that has it, "unknown flag" from the first that does not', async (t) => {
  const cases: [string[], number, number][] = [
    [['--container-runtime=remote', CRI], 26, 27],
    [['--master-service-namespace=default'], 26, 27],
    [['--azure-container-registry-config=/etc/kubernetes/azure.json'], 29, 30],
    [['--keep-terminated-pod-volumes'], 30, 31],
    [['--cloud-config=/etc/kubernetes/cloud.conf'], 33, 34],
    [['--register-schedulable=true'], 33, 34],
    [['--pod-infra-container-image=registry.k8s.io/pause:3.10'], 34, 35],
  ];
  for (const [argv, last, first] of cases) {
    const name = argv[0]!.replace(/^--/, '').replace(/=.*/, '');
    t.equal(parseKubeletCommandLine(argv, last).ok, true, `1.${last} accepts --${name}`);
    t.same(err(parseKubeletCommandLine(argv, first)), { error: `unknown flag: --${name}`, kind: 'unknown-flag', flag: name }, `1.${first} refuses --${name}`);
  }
});

t.test('dockershim flags and --dynamic-config-dir are refused by 1.24', async (t) => {
  for (const flag of ['network-plugin=cni', 'cni-conf-dir=/etc/cni/net.d', 'docker-endpoint=unix:///var/run/docker.sock', 'dynamic-config-dir=/var/lib/kubelet/dynamic-config']) {
    const name = flag.replace(/=.*/, '');
    t.same(err(parseKubeletCommandLine([CRI, `--${flag}`], 24)), { error: `unknown flag: --${name}`, kind: 'unknown-flag', flag: name });
  }
});

t.test('"unknown flag" quotes the name as written, underscores included; the lookup normalizes them', async (t) => {
  t.same(err(parseKubeletCommandLine(['--network_plugin=cni'], 24)), { error: 'unknown flag: --network_plugin', kind: 'unknown-flag', flag: 'network-plugin' });
  const r = parseKubeletCommandLine(['--max_pods=110', '--fail_swap_on=false'], 30);
  t.equal(r.ok, true);
  if (r.ok === true) t.same([...r.occurrences], [['max-pods', ['110']], ['fail-swap-on', ['false']]]);
});

t.test('--config-dir on 1.27 is an unknown flag; on 1.28 it parses', async (t) => {
  t.same(err(parseKubeletCommandLine(['--config-dir=/etc/kubernetes/kubelet.conf.d'], 27)), { error: 'unknown flag: --config-dir', kind: 'unknown-flag', flag: 'config-dir' });
  t.equal(parseKubeletCommandLine(['--config-dir=/etc/kubernetes/kubelet.conf.d'], 28).ok, true);
});

t.test('a name no table of that minor holds is "unknown flag" with pflag\'s text, on every minor', async (t) => {
  for (const minor of MODELLED_MINORS) {
    t.same(err(parseKubeletCommandLine(['--node-lables=tier=web', '--max-pods=abc'], minor)), { error: 'unknown flag: --node-lables', kind: 'unknown-flag', flag: 'node-lables' }, `1.${minor}: the first bad argument decides`);
    t.same(err(parseKubeletCommandLine([CRI, '--max-pod=250'], minor)), { error: 'unknown flag: --max-pod', kind: 'unknown-flag', flag: 'max-pod' }, `1.${minor}`);
    t.match(parseKubeletCommandLine(['--node-lables=tier=web'], minor), { closeFlags: ['node-labels'] }, `1.${minor}: node-check's suggestion`);
    t.same(err(parseKubeletCommandLine(['--max_pod', '250'], minor)), { error: 'unknown flag: --max_pod', kind: 'unknown-flag', flag: 'max-pod' });
  }
  t.same(err(parseKubeletCommandLine(['--iptables-masquerade-bit=14'], 31)), { error: 'unknown flag: --iptables-masquerade-bit', kind: 'unknown-flag', flag: 'iptables-masquerade-bit' });
  t.equal(parseKubeletCommandLine(['--iptables-masquerade-bit=14'], 30).ok, true);
  t.ok('undecidable' in parseKubeletCommandLine([], NEXT_MINOR), 'outside the modelled minors');
});

t.test('value errors carry pflag\'s exact text', async (t) => {
  const bad = (argv: string[], minor = 30) => err(parseKubeletCommandLine(argv, minor))?.error;
  t.equal(bad(['--max-pods=abc']), 'invalid argument "abc" for "--max-pods" flag: strconv.ParseInt: parsing "abc": invalid syntax');
  t.equal(bad(['--max-pods', '99999999999']), 'invalid argument "99999999999" for "--max-pods" flag: strconv.ParseInt: parsing "99999999999": value out of range');
  t.equal(bad(['--max-pods=_1']), 'invalid argument "_1" for "--max-pods" flag: strconv.ParseInt: parsing "_1": invalid syntax');
  t.equal(bad(['--max-pods=']), 'invalid argument "" for "--max-pods" flag: strconv.ParseInt: parsing "": invalid syntax');
  t.equal(bad(['--pod-max-pids=9223372036854775808']), 'invalid argument "9223372036854775808" for "--pod-max-pids" flag: strconv.ParseInt: parsing "9223372036854775808": value out of range');
  t.equal(bad(['--sync-frequency=x']), 'invalid argument "x" for "--sync-frequency" flag: time: invalid duration "x"');
  t.equal(bad(['--sync-frequency=10']), 'invalid argument "10" for "--sync-frequency" flag: time: missing unit in duration "10"');
  t.equal(bad(['--minimum-container-ttl-duration=6q']), 'invalid argument "6q" for "--minimum-container-ttl-duration" flag: time: unknown unit "q" in duration "6q"');
  t.equal(bad(['--fail-swap-on=no']), 'invalid argument "no" for "--fail-swap-on" flag: strconv.ParseBool: parsing "no": invalid syntax');
  t.equal(bad(['--fail-swap-on=']), 'invalid argument "" for "--fail-swap-on" flag: strconv.ParseBool: parsing "": invalid syntax');
  t.equal(bad(['--feature-gates=KubeletTracing=yes']), 'invalid argument "KubeletTracing=yes" for "--feature-gates" flag: invalid value of KubeletTracing: yes, err: strconv.ParseBool: parsing "yes": invalid syntax');
  t.equal(bad(['--feature-gates=KubeletTracing']), 'invalid argument "KubeletTracing" for "--feature-gates" flag: malformed pair, expect string=bool');
  t.equal(bad(['--v=abc']), 'invalid argument "abc" for "-v, --v" flag: strconv.ParseUint: parsing "abc": invalid syntax');
  t.equal(bad(['-v', '-1']), 'invalid argument "-1" for "-v, --v" flag: strconv.ParseUint: parsing "-1": invalid syntax');
  t.equal(bad(['--v=']), 'invalid argument "" for "-v, --v" flag: strconv.ParseUint: parsing "": invalid syntax', 'an unset ${KUBELET_LOG_LEVEL}');
  t.equal(bad(['--vmodule=foo']), 'invalid argument "foo" for "--vmodule" flag: "foo" does not have the pattern=N format');
  t.equal(bad(['--vmodule=foo=x']), 'invalid argument "foo=x" for "--vmodule" flag: parsing verbosity in "foo=x": strconv.ParseUint: parsing "x": invalid syntax');
  t.equal(bad(['--eviction-hard=memory.available=100Mi']), 'invalid argument "memory.available=100Mi" for "--eviction-hard" flag: malformed pair, expect string<string');
  t.equal(bad(['--system-reserved=cpu']), 'invalid argument "cpu" for "--system-reserved" flag: malformed pair, expect string=string');
  t.equal(bad(['--cpu-manager-policy-options', 'full-pcpus-only']), 'invalid argument "full-pcpus-only" for "--cpu-manager-policy-options" flag: malformed pair, expect string=string');
  t.equal(bad(['--manifest-url-header=a=b']), 'invalid argument "a=b" for "--manifest-url-header" flag: malformed pair, expect string:string');
  t.equal(bad(['--enable-load-reader=maybe']), 'invalid argument "maybe" for "--enable-load-reader" flag: parse error', 'cadvisor flags are Go flag values');
  t.equal(bad(['--version=yes']), 'invalid argument "yes" for "--version" flag: strconv.ParseBool: parsing "yes": invalid syntax');
  t.equal(err(parseKubeletCommandLine(['--max-pods=abc'], 30))?.kind, 'bad-value');
});

t.test('values kubelet accepts', async (t) => {
  for (const argv of [
    ['--max-pods=0x10'], ['--max-pods=1_000'], ['--max-pods=-5'], ['--max-pods=010'], ['--sync-frequency=1m30s'], ['--fail-swap-on=F'],
    ['--feature-gates= A = true ,B=0,'], ['--system-reserved=cpu=,memory=,ephemeral-storage='], ['--v=2'], ['-v4'], ['-v=4'], ['-v', '4'],
    ['--vmodule=kubelet*=4,'], ['--eviction-hard=memory.available<100Mi,nodefs.available<10%'], ['--tls-cipher-suites=TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384'],
    ['--node-ip='], ['--address=0.0.0.0'], ['--register-with-taints=node.example.com/gpu=true:NoSchedule,dedicated:NoExecute'], ['--register-with-taints='],
    ['--node-labels=anything goes here'],
  ]) {
    t.equal(parseKubeletCommandLine(argv, 30).ok, true, argv.join(' '));
  }
});

t.test('a value node-check cannot judge is "cannot tell" unless a later argument certainly fails', async (t) => {
  t.ok('undecidable' in parseKubeletCommandLine(['--reserved-memory=0:memory=1Gi'], 30));
  t.same(err(parseKubeletCommandLine(['--reserved-memory=0:memory=1Gi', 'stray'], 30)), { error: 'unknown command stray', kind: 'stray-word', inexact: true });
});

t.test('missing values and bad syntax', async (t) => {
  t.same(err(parseKubeletCommandLine(['--fail-swap-on', '--max-pods'], 30)), { error: 'flag needs an argument: --max-pods', kind: 'missing-value', flag: 'max-pods' });
  t.same(err(parseKubeletCommandLine(['--max_pods'], 30)), { error: 'flag needs an argument: --max_pods', kind: 'missing-value', flag: 'max-pods' });
  t.same(err(parseKubeletCommandLine(['-v'], 30)), { error: "flag needs an argument: 'v' in -v", kind: 'missing-value', flag: 'v' });
  t.same(err(parseKubeletCommandLine(['---max-pods=5'], 30)), { error: 'bad flag syntax: ---max-pods=5', kind: 'bad-syntax' });
  t.same(err(parseKubeletCommandLine(['--=5'], 30)), { error: 'bad flag syntax: --=5', kind: 'bad-syntax' });
});

t.test('a value flag takes the next argument whatever it looks like', async (t) => {
  const r = parseKubeletCommandLine(['--config', '--kubeconfig=/x'], 30);
  t.equal(r.ok, true);
  if (r.ok === true) {
    t.same(r.occurrences.get('config'), ['--kubeconfig=/x']);
    t.notOk(r.occurrences.has('kubeconfig'));
  }
});

t.test('stray words: bool flags never take the next word; interspersed words; "--"', async (t) => {
  t.same(err(parseKubeletCommandLine(['--fail-swap-on', 'false', '--max-pods=10'], 30)), { error: 'unknown command false', kind: 'stray-word' });
  t.same(err(parseKubeletCommandLine(['stray', '--max-pods=abc'], 30))?.kind, 'bad-value', 'flag errors come first (interspersed parsing)');
  t.same(err(parseKubeletCommandLine(['first', '--max-pods=5', 'second'], 30)), { error: 'unknown command first', kind: 'stray-word' });
  t.same(err(parseKubeletCommandLine(['--', '--max-pods=5'], 30)), { error: 'unknown command --max-pods=5', kind: 'stray-word' });
  t.same(err(parseKubeletCommandLine(['-'], 30)), { error: 'unknown command -', kind: 'stray-word' });
  t.same(err(parseKubeletCommandLine([''], 30)), { error: 'unknown command ', kind: 'stray-word' });
  t.equal(parseKubeletCommandLine(['--max-pods=5', '--'], 30).ok, true);
  const r = parseKubeletCommandLine(['--fail-swap-on', 'false'], 30);
  if (r.ok === false) t.equal(withKubeletParsePrefix(r), 'unknown command false');
  const u = parseKubeletCommandLine(['--pod-infra-container-image=x'], 35);
  if (u.ok === false) t.equal(withKubeletParsePrefix(u), 'failed to parse kubelet flag: unknown flag: --pod-infra-container-image');
});

t.test('help, version, deprecations, -test.*', async (t) => {
  t.match(parseKubeletCommandLine(['-h'], 30), { ok: true, exitsEarly: 'help' });
  t.match(parseKubeletCommandLine(['--help=false'], 30), { ok: true, exitsEarly: undefined });
  t.match(parseKubeletCommandLine(['--version'], 30), { ok: true, exitsEarly: 'version' });
  t.match(parseKubeletCommandLine(['--version=raw'], 30), { ok: true, exitsEarly: 'version' });
  t.match(parseKubeletCommandLine(['--version', 'false'], 30), { ok: false, error: 'unknown command false' });
  t.ok('undecidable' in parseKubeletCommandLine(['--version=v1.30.0'], 30));
  t.match(parseKubeletCommandLine(['--minimum-container-ttl-duration=6m0s', '--max-pods=5'], 30), { ok: true, deprecated: ['minimum-container-ttl-duration', 'max-pods'] });
  t.match(parseKubeletCommandLine(['-test.v', '--max-pods=5'], 30), { ok: true });
});

t.test('pflag texts for long and short forms of an unregistered name; a test table replaces the generated one', async (t) => {
  const table = new Map(kubeletFlagsFor(30)!);
  table.delete('fail-swap-on');
  const opts = { table };
  t.same(err(parseKubeletCommandLine(['--max-pods=5', '--fail-swap-on=false'], 30, opts)), { error: 'unknown flag: --fail-swap-on', kind: 'unknown-flag', flag: 'fail-swap-on' });
  t.equal(parseKubeletCommandLine(['--max-pods=5', '--fail-swap-on=false'], 30).ok, true);
  t.same(err(parseKubeletCommandLine(['-x'], 30)), { error: "unknown shorthand flag: 'x' in -x", kind: 'unknown-flag', flag: '-x' });
  t.same(err(parseKubeletCommandLine(['-hx'], 30)), { error: "unknown shorthand flag: 'x' in -x", kind: 'unknown-flag', flag: '-x' });
});

t.test('shorthands are known whole (-h and -v only): a single-dash long flag is pflag\'s unknown shorthand', async (t) => {
  for (const minor of [24, 30, 36]) {
    t.same(err(parseKubeletCommandLine(['-node-ip=10.0.0.5'], minor)), { error: "unknown shorthand flag: 'n' in -node-ip=10.0.0.5", kind: 'unknown-flag', flag: '-n' }, `1.${minor}`);
  }
  t.match(parseKubeletCommandLine(['-node-ip=10.0.0.5'], 30), { closeFlags: ['node-ip'] }, 'suggests the long form');
  t.match(parseKubeletCommandLine(['-v=2', '-h'], 30), { ok: true });
});

t.test('klog flags: deprecated but accepted in 1.25, unknown from 1.26 (KEP-2845); log-text-* unknown before 1.30', async (t) => {
  t.match(parseKubeletCommandLine(['--logtostderr=false', '--log-dir=/var/log/kubernetes'], 25), { ok: true, deprecated: ['logtostderr', 'log-dir'] });
  t.same(err(parseKubeletCommandLine(['--logtostderr=false'], 26)), { error: 'unknown flag: --logtostderr', kind: 'unknown-flag', flag: 'logtostderr' });
  t.same(err(parseKubeletCommandLine(['--log_dir=/var/log'], 36)), { error: 'unknown flag: --log_dir', kind: 'unknown-flag', flag: 'log-dir' });
  t.same(err(parseKubeletCommandLine(['--log-text-split-stream'], 29)), { error: 'unknown flag: --log-text-split-stream', kind: 'unknown-flag', flag: 'log-text-split-stream' });
  t.equal(parseKubeletCommandLine(['--log-text-split-stream'], 30).ok, true);
});

t.test('OpenShift\'s kubelet also registers --max-housekeeping-interval (1.25+); its 1.24 was not read', async (t) => {
  for (let minor = 25; minor <= NEWEST_MODELLED_MINOR; minor++) {
    t.equal(parseKubeletCommandLine(['--max-housekeeping-interval=15s'], minor, { flavor: 'openshift' }).ok, true, `openshift 1.${minor}`);
    t.same(err(parseKubeletCommandLine(['--max-housekeeping-interval=15s'], minor)), { error: 'unknown flag: --max-housekeeping-interval', kind: 'unknown-flag', flag: 'max-housekeeping-interval' }, `upstream 1.${minor}`);
  }
  t.match(err(parseKubeletCommandLine(['--max-housekeeping-interval=soon'], 30, { flavor: 'openshift' })), { kind: 'bad-value', error: 'invalid argument "soon" for "--max-housekeeping-interval" flag: parse error' });
  t.ok('undecidable' in parseKubeletCommandLine(['--max-housekeeping-interval=15s'], 24, { flavor: 'openshift' }));
  t.same(err(parseKubeletCommandLine(['--node-lables=a=b'], 24, { flavor: 'openshift' })), { error: 'unknown flag: --node-lables', kind: 'unknown-flag', flag: 'node-lables' });
});
