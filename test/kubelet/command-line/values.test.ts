// flag.Value.Set per value type kubelet registers (pflag, component-base cli/flag, Go's flag package):
// the inner error kubelet prints after `invalid argument "<v>" for "--<flag>" flag: `.
import t from 'tap';
import { checkFlagValue, invalidArgument, pflagDisplayName } from '../../../src/kubelet/command-line/values.js';
import { kubeletFlagsFor, type FlagSpec } from '../../../src/kubelet/command-line/flag-table.js';

const spec = (minor: number, name: string): FlagSpec => {
  const s = kubeletFlagsFor(minor)?.get(name);
  if (!s) throw new Error(`no --${name} in 1.${minor}`);
  return s;
};
const check = (name: string, value: string, minor = 30) => checkFlagValue(spec(minor, name), value);
const OK = { ok: true };
const fail = (error: string) => ({ ok: false, error });

t.test('pflag numbers and bools: strconv\'s texts', async (t) => {
  t.same(check('max-pods', '110'), OK);
  t.same(check('max-pods', 'abc'), fail('strconv.ParseInt: parsing "abc": invalid syntax'));
  t.same(check('max-pods', '2147483648'), fail('strconv.ParseInt: parsing "2147483648": value out of range'), 'int32');
  t.same(check('max-open-files', '2147483648'), OK, 'int64');
  t.same(check('fail-swap-on', 'yes'), fail('strconv.ParseBool: parsing "yes": invalid syntax'));
  t.same(check('fail-swap-on', 'False'), OK);
});

t.test('Go flag package values say only "parse error" or "value out of range"', async (t) => {
  t.same(check('logtostderr', 'yes', 24), fail('parse error'));
  t.same(check('logtostderr', 'true', 24), OK);
  t.same(check('application-metrics-count-limit', 'x'), fail('parse error'));
  t.same(check('application-metrics-count-limit', '99999999999999999999'), fail('value out of range'));
  t.same(check('log-file-max-size', '-1', 24), fail('parse error'));
  t.same(check('log-file-max-size', '99999999999999999999', 24), fail('value out of range'));
  t.same(check('log-file-max-size', '1800', 24), OK);
  t.same(check('housekeeping-interval', '10'), fail('parse error'));
  t.same(check('housekeeping-interval', '10s'), OK);
});

t.test('durations: time.ParseDuration\'s text', async (t) => {
  t.same(check('node-status-update-frequency', '10'), fail('time: missing unit in duration "10"'));
  t.same(check('node-status-update-frequency', '1m30s'), OK);
});

t.test('map flags: component-base\'s malformed-pair texts', async (t) => {
  t.same(check('kube-reserved', 'cpu=1,memory'), fail('malformed pair, expect string=string'));
  t.same(check('kube-reserved', 'cpu=1,,memory=1Gi'), OK, 'empty items are skipped');
  t.same(check('eviction-hard', 'memory.available=100Mi'), fail('malformed pair, expect string<string'));
  t.same(check('eviction-hard', 'memory.available<100Mi'), OK);
  t.same(check('manifest-url-header', 'Authorization=x'), fail('malformed pair, expect string:string'));
  t.same(check('manifest-url-header', 'Authorization:Bearer x'), OK);
  t.same(check('cpu-manager-policy-options', 'full-pcpus-only'), fail('malformed pair, expect string=string'));
  t.same(check('cpu-manager-policy-options', 'a=b,c'), OK, 'NoSplit: one pair, commas included');
  t.same(check('feature-gates', 'A'), fail('malformed pair, expect string=bool'));
  t.same(check('feature-gates', 'A=true, B = maybe'), fail('invalid value of B: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax'));
  t.same(check('feature-gates', 'A=true,,B=false'), OK);
});

t.test('klog verbosity and vmodule', async (t) => {
  t.same(check('v', 'x'), fail('strconv.ParseUint: parsing "x": invalid syntax'));
  t.same(check('v', '-1'), fail('strconv.ParseUint: parsing "-1": invalid syntax'));
  t.same(check('v', '4'), OK);
  t.same(check('vmodule', 'foo'), fail('"foo" does not have the pattern=N format'));
  t.same(check('vmodule', 'foo='), fail('"foo=" does not have the pattern=N format'));
  t.same(check('vmodule', 'foo=x'), fail('parsing verbosity in "foo=x": strconv.ParseUint: parsing "x": invalid syntax'));
  t.same(check('vmodule', 'foo=2,bar*=3'), OK);
});

t.test('what is not modelled is "cannot tell", never ok', async (t) => {
  for (const [name, value] of [['reserved-memory', '0:memory=1Gi'], ['log-json-info-buffer-size', '1.5Mi'], ['address', 'fe80::1%eth0'], ['register-with-taints', 'bad'], ['version', 'v1.30.0'], ['cluster-dns', '"a,b"'], ['stderrthreshold', '2']] as const) {
    const minor = name === 'stderrthreshold' ? 24 : 30;
    t.ok('undecidable' in check(name, value, minor), `--${name}=${value}`);
  }
  t.same(check('log-json-info-buffer-size', '64Ki'), OK);
  t.same(check('address', '10.0.0.1'), OK);
  t.same(check('address', '::'), OK);
  t.same(check('address', ''), OK, 'empty clears it');
  t.same(check('register-with-taints', 'dedicated=infra:NoSchedule,example.com/gpu:NoExecute'), OK);
  t.same(check('register-with-taints', ' '), OK, 'blank clears');
  t.same(check('cluster-dns', '10.0.0.10,10.0.0.11'), OK);
  t.same(check('node-labels', 'anything'), OK, 'ConfigurationMap.Set never fails');
});

t.test('--version: raw, a bool, or (not modelled) a version', async (t) => {
  t.same(check('version', 'raw'), OK);
  t.same(check('version', 'false'), OK);
  t.same(check('version', 'maybe'), fail('strconv.ParseBool: parsing "maybe": invalid syntax'));
});

t.test('pflag\'s wrapping names the shorthand too', async (t) => {
  t.equal(pflagDisplayName(spec(30, 'v')), '-v, --v');
  t.equal(invalidArgument(spec(30, 'v'), 'x', 'strconv.ParseUint: parsing "x": invalid syntax'), 'invalid argument "x" for "-v, --v" flag: strconv.ParseUint: parsing "x": invalid syntax');
  t.equal(invalidArgument(spec(30, 'max-pods'), 'a"b', 'e'), 'invalid argument "a\\"b" for "--max-pods" flag: e');
});
