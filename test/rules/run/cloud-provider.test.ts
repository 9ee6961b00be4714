// The two --cloud-provider rules of the run step: run()'s (src/rules/run/cloud-provider.ts) and
// NewMainKubelet's (src/rules/run/cloud-provider-disabled.ts), per minor, and where each is met.
import t from 'tap';
import { cloudProviderRule } from '../../../src/rules/run/cloud-provider.js';
import { cloudProviderDisabledRule } from '../../../src/rules/run/cloud-provider-disabled.js';
import { runRules } from '../../../src/rules/rule.js';
import type { StartContext } from '../../../src/start/start-context.js';
import { refusalOf as failOf, startContext as ctx, withHost as host } from '../../helpers/start-context.js';

const both = (context: StartContext) => runRules(context, [cloudProviderRule, cloudProviderDisabledRule]);
const DISABLED = (name: string) => `cloud provider "${name}" was specified, but built-in cloud providers are disabled. Please set --cloud-provider=external and migrate to an external cloud provider`;

t.test('--cloud-provider per minor', async (t) => {
  const unknown = failOf(cloudProviderRule.decide(ctx('--cloud-provider=foo', 28)));
  t.equal(unknown?.findingId, 'cloud-provider-unknown');
  t.equal(unknown?.kubeletError, 'failed to run Kubelet: unknown cloud provider "foo"');
  t.equal(unknown?.logLine, '"command failed" err="failed to run Kubelet: unknown cloud provider \\"foo\\""');
  t.equal(unknown?.exitStatus, 1);
  t.same(cloudProviderDisabledRule.decide(ctx('--cloud-provider=foo', 28)), { pass: true }, 'an unknown name is run()\'s, not NewMainKubelet\'s');
  // 1.32-1.33 refuse in run() itself, unwrapped (the real 1.33.13: test/oracle/verdicts/1.33.json,
  // generated/flag-cloud-provider-aws); 1.34+ in NewMainKubelet.
  const refusedInRun = failOf(cloudProviderRule.decide(ctx('--cloud-provider=aws', 33)));
  t.equal(refusedInRun?.kubeletError, `failed to run Kubelet: ${DISABLED('aws')}`);
  t.same(cloudProviderDisabledRule.decide(ctx('--cloud-provider=aws', 33)), { pass: true });
  const disabled = failOf(cloudProviderDisabledRule.decide(ctx('--cloud-provider=aws', 34)));
  t.equal(disabled?.kubeletError, `failed to run Kubelet: failed to create kubelet: ${DISABLED('aws')}`);
  t.same(cloudProviderRule.decide(ctx('--cloud-provider=aws', 34)), { pass: true });
  t.same(both(ctx('--cloud-provider=external', 33)), { pass: true });
  t.ok('undecidable' in cloudProviderRule.decide(ctx('--cloud-provider=gce', 28)), 'an in-tree provider initialises against the cloud');
});

t.test('1.29 with DisableCloudProviders on: NewMainKubelet refuses; with it off the provider initialises (cannot tell)', async (t) => {
  const on = failOf(cloudProviderDisabledRule.decide(ctx('--cloud-provider=gce --feature-gates=DisableCloudProviders=true', 29)));
  t.equal(on?.findingId, 'cloud-provider-disabled');
  t.equal(on?.kubeletError, `failed to run Kubelet: failed to create kubelet: ${DISABLED('gce')}`);
  const off = ctx('--cloud-provider=gce --feature-gates=DisableCloudProviders=false', 29);
  t.ok('undecidable' in cloudProviderRule.decide(off));
  t.same(cloudProviderDisabledRule.decide(off), { pass: true });
});

t.test('--cloud-config is opened first (klog.Fatalf, status 255)', async (t) => {
  const conf = '/etc/kubernetes/cloud.conf';
  const missing = failOf(cloudProviderRule.decide(ctx(`--cloud-provider=gce --cloud-config=${conf}`, 28, { files: { [conf]: { exists: false, code: 'ENOENT' } } })));
  t.match(missing, { findingId: 'cloud-config-unopenable', exitStatus: 255, path: conf });
  t.match(missing?.kubeletError, /^Couldn't open cloud provider configuration \/etc\/kubernetes\/cloud\.conf: /);
  t.ok('undecidable' in cloudProviderRule.decide(ctx(`--cloud-provider=gce --cloud-config=${conf}`, 28)), 'a file discovery did not read: whether it opens is not known');
});

t.test('an in-tree --cloud-provider is a host fact (the machine\'s DMI on "/", notChecked elsewhere)', async (t) => {
  const absent = { code: 'ENOENT' };
  const noSwap = { swaps: { present: false } };
  const ec2 = host({ ...noSwap, cloudMachine: { hypervisorUuid: absent, productUuid: { text: 'ec2a0b1c-0000-0000-0000-000000000000\n' }, boardAssetTag: absent, productName: { text: 'm5.large\n' } } });
  const laptop = host({ ...noSwap, cloudMachine: { hypervisorUuid: absent, productUuid: { text: '4c4c4544-0000\n' }, boardAssetTag: absent, productName: { text: 'ThinkPad\n' } } });
  for (const minor of [24, 25, 26]) t.same(both(ctx('--cloud-provider=aws', minor, ec2)), { pass: true }, `1.${minor} on EC2: the AWS provider initialises`);
  const off = cloudProviderRule.decide(ctx('--cloud-provider=aws', 26, laptop));
  t.ok('undecidable' in off, 'not shown: still cannot tell (the metadata service is not asked)');
  t.match('undecidable' in off && off.undecidable, 'the machine does not show that cloud');
  t.equal(failOf(cloudProviderRule.decide(ctx('--cloud-provider=aws', 27, ec2)))?.findingId, 'cloud-provider-unknown', '1.27 links no AWS provider, whatever the machine');
  const gce = host({ ...noSwap, cloudMachine: { productName: { text: 'Google Compute Engine\n' } } });
  t.same(both(ctx('--cloud-provider=gce', 28, gce)), { pass: true }, '1.28 (DisableCloudProviders off) on GCE');
  t.ok('undecidable' in cloudProviderRule.decide(ctx('--cloud-provider=gce', 28, ec2)), 'gce on an EC2 machine');
  t.ok('undecidable' in cloudProviderRule.decide(ctx('--cloud-provider=azure', 28, ec2)), 'azure has no offline test in its source');
  const other = host({}, {}, ['swaps', 'criSocket', 'cloudMachine'].map((fact) => ({ fact, reason: '--root /x is not the running system' })));
  t.same(both(ctx('--cloud-provider=aws', 24, other)), { pass: true }, 'another root: listed in notChecked, the rest decided');
  t.same(both(ctx('--cloud-provider=azure', 28, other)), { pass: true }, 'as for every in-tree provider');
});
