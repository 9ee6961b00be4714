import t from 'tap';
import { checkNodeIP, nodeIPEntries } from '../../../src/kubelet/node-setup/node-ip.js';
import { isIPv4, isUnspecified, parseIPSloppy } from '../../../src/kubelet/node-setup/ip.js';
import { MODELLED_MINORS, NEXT_MINOR } from '../../../src/kubelet/data/minors.js';

const off = () => false;
const on = () => true;

t.test('ParseIPSloppy keeps Go 1.16 leniency', async (t) => {
  t.ok(parseIPSloppy('010.000.000.001'), 'leading zeros accepted');
  t.equal(parseIPSloppy('256.1.1.1'), undefined);
  t.equal(parseIPSloppy('1.2.3'), undefined);
  t.equal(parseIPSloppy('fe80::1%eth0'), undefined, 'no zones');
  t.equal(parseIPSloppy('host.example'), undefined);
  t.ok(isIPv4(parseIPSloppy('::ffff:10.0.0.1')!), 'IPv4-mapped counts as IPv4 (To4)');
  t.ok(isUnspecified(parseIPSloppy('::')!));
  t.ok(isUnspecified(parseIPSloppy('0.0.0.0')!));
  t.equal(parseIPSloppy('1::2::3'), undefined);
  t.same(nodeIPEntries(' 10.0.0.1 , bogus'), { ips: [parseIPSloppy('10.0.0.1')], invalid: ['bogus'] });
});

t.test('single and empty values pass; unparsable entries are ignored', async (t) => {
  for (const m of MODELLED_MINORS) {
    t.equal(checkNodeIP(m, '', '', off), undefined);
    t.equal(checkNodeIP(m, '10.0.0.1', 'external', off), undefined);
    t.equal(checkNodeIP(m, 'not-an-ip', '', off), undefined);
  }
});

t.test('two addresses of one family', async (t) => {
  t.equal(
    checkNodeIP(26, '10.0.0.1,10.0.0.2', '', off)!.kubeletError,
    'failed to run Kubelet: bad --node-ip "10.0.0.1,10.0.0.2"; must contain either a single IP or a dual-stack pair of IPs',
  );
  t.equal(
    checkNodeIP(27, '10.0.0.1,10.0.0.2', '', off)!.kubeletError,
    'failed to run Kubelet: bad --node-ip "10.0.0.1,10.0.0.2": must contain either a single IP or a dual-stack pair of IPs',
  );
  t.equal(
    checkNodeIP(36, '::ffff:10.0.0.1,10.0.0.2', '', off)!.kubeletError,
    'failed to run Kubelet: bad --node-ip "::ffff:10.0.0.1,10.0.0.2": must contain either a single IP or a dual-stack pair of IPs',
  );
  t.equal(checkNodeIP(30, '10.0.0.1,fd00::1,fd00::2', '', off)!.findingId, 'node-ip-rejected');
});

t.test('dual-stack with a cloud provider: the boundaries at 1.27 and 1.30', async (t) => {
  const pair = '10.0.0.1,fd00::1';
  t.equal(
    checkNodeIP(26, pair, 'external', on)!.kubeletError,
    'failed to run Kubelet: dual-stack --node-ip "10.0.0.1,fd00::1" not supported when using a cloud provider',
  );
  t.equal(checkNodeIP(26, pair, '', off), undefined);
  t.equal(
    checkNodeIP(28, pair, 'external', off)!.kubeletError,
    'failed to run Kubelet: bad --node-ip "10.0.0.1,fd00::1": dual-stack not supported in this configuration',
  );
  t.equal(checkNodeIP(28, pair, 'external', off)!.message, 'kubelet 1.28 rejects --node-ip=10.0.0.1,fd00::1: dual-stack not supported in this configuration');
  t.equal(checkNodeIP(28, pair, 'external', on), undefined, 'CloudDualStackNodeIPs enabled');
  t.equal(checkNodeIP(29, pair, 'external', on), undefined);
  t.equal(checkNodeIP(30, pair, 'external', off), undefined, 'GA: the gate is not consulted');
  t.equal(
    checkNodeIP(30, pair, 'gce', on)!.kubeletError,
    'failed to run Kubelet: bad --node-ip "10.0.0.1,fd00::1": dual-stack not supported in this configuration',
  );
});

t.test('unspecified address in a pair', async (t) => {
  t.equal(
    checkNodeIP(24, '0.0.0.0,::1', '', off)!.kubeletError,
    `failed to run Kubelet: dual-stack --node-ip "0.0.0.0,::1" cannot include '0.0.0.0' or '::'`,
  );
  t.equal(
    checkNodeIP(33, '10.0.0.1,::', '', off)!.kubeletError,
    `failed to run Kubelet: bad --node-ip "10.0.0.1,::": dual-stack node IP cannot include '0.0.0.0' or '::'`,
  );
  t.equal(checkNodeIP(33, '0.0.0.0', '', off), undefined, 'a single unspecified address is allowed');
  t.equal(checkNodeIP(NEXT_MINOR, '0.0.0.0,::', '', off), undefined, 'unmodelled minor');
});
