// After "Started kubelet": protectKernelDefaults against the kernel tunables (src/rules/post-start/kernel-tunables.ts).
import t from 'tap';
import { kernelTunablesRule } from '../../../src/rules/post-start/kernel-tunables.js';
import { refusalOf as failOf, startContext as ctx, withHost as host } from '../../helpers/start-context.js';

t.test('protectKernelDefaults with a kernel tunable kubelet would have to change', async (t) => {
  const sysctls = { 'vm/overcommit_memory': { value: 0 }, 'vm/panic_on_oom': { value: 0 }, 'kernel/panic': { value: 10 }, 'kernel/panic_on_oops': { value: 1 }, 'kernel/keys/root_maxkeys': { value: 1000000 }, 'kernel/keys/root_maxbytes': { value: 25000000 } };
  const outcome = failOf(kernelTunablesRule.decide(ctx('--protect-kernel-defaults=true', 30, host({ sysctls }))));
  t.equal(outcome?.findingId, 'host-kernel-tunables');
  t.match(outcome?.kubeletError, /vm\/overcommit_memory/);
  t.equal(outcome?.exitStatus, 1);
  t.notOk(outcome?.logLine, 'not a "command failed" line: the container manager fails after start');
  t.same(kernelTunablesRule.decide(ctx('--v=2', 30, host({ sysctls }))), { pass: true }, 'protectKernelDefaults is off by default');
  const partial = kernelTunablesRule.decide(ctx('--protect-kernel-defaults=true', 30, host({ sysctls: { 'vm/overcommit_memory': { value: 1 } } })));
  t.ok('undecidable' in partial, 'a tunable not read is "cannot tell"');
});
