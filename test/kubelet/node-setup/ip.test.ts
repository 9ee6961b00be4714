// netutils.ParseIPSloppy (k8s.io/utils/net forked Go 1.16 net.ParseIP): the 16-byte results and the
// inputs it returns nil for, and the net.IP predicates kubelet's --node-ip checks use.
import t from 'tap';
import { isIPv4, isIPv6, isUnspecified, parseIPSloppy } from '../../../src/kubelet/node-setup/ip.js';

const v4 = (a: number, b: number, c: number, d: number) => [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, a, b, c, d];
const bytes = (...b: number[]) => [...b, ...new Array<number>(16 - b.length).fill(0)];

t.test('IPv4: dotted quads become 4-in-16 (To4 != nil); leading zeros are decimal, not octal', async (t) => {
  t.same(parseIPSloppy('10.0.0.1'), v4(10, 0, 0, 1));
  t.same(parseIPSloppy('010.001.000.255'), v4(10, 1, 0, 255));
  for (const bad of ['1.2.3.4.5', '1.2.3.', '.1.2.3', '1.2.3.4:80', '0x1.2.3.4', '1111111111111111.1.1.1', '1.2.3.256', '1..2.3', '']) {
    t.equal(parseIPSloppy(bad), undefined, JSON.stringify(bad));
  }
});

t.test('IPv6: groups, "::" anywhere once, an embedded IPv4 tail', async (t) => {
  t.same(parseIPSloppy('::1'), bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1));
  t.same(parseIPSloppy('::'), bytes());
  t.same(parseIPSloppy('2001:DB8::1'), [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  t.same(parseIPSloppy('1:2:3:4:5:6:7:8'), [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
  t.same(parseIPSloppy('1:2:3:4:5:6:7::'), [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0], 'a trailing "::" stands for one group');
  t.same(parseIPSloppy('fe80::'), bytes(0xfe, 0x80));
  t.same(parseIPSloppy('::ffff:1.2.3.4'), v4(1, 2, 3, 4), 'IPv4-mapped');
  t.same(parseIPSloppy('::1.2.3.4'), bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4), 'IPv4-compatible is IPv6');
  t.same(parseIPSloppy('1:2:3:4:5:6:1.2.3.4'), [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 1, 2, 3, 4]);
  for (const bad of [
    '1:2:3:4:5:6:7:8:9', // too many groups
    '1:2:3:4:5:6:7:8::', // "::" must stand for at least one group
    '1:2:3:4:5:6:7', // too few without "::"
    '1::2::3', // two ellipses
    '12345::', // group over 0xffff
    ':1::', // a single leading colon
    '1:', // a trailing single colon
    '1:2:3:4:5:1.2.3.4', // IPv4 tail not at byte 12 without "::"
    '1:2:3:4:5:6:7:1.2.3.4',
    '::1:2:3:4:5:6:7:1.2.3.4', // IPv4 tail past 16 bytes
    '::1:2:3:4:5:6:1.2.3.4', // full with "::"
    '::1.2.3', // bad IPv4 tail
    'fe80::1%eth0', // zones are not IPs
    'g::1',
  ]) {
    t.equal(parseIPSloppy(bad), undefined, bad);
  }
});

t.test('the family is decided by the first "." or ":"', async (t) => {
  t.equal(parseIPSloppy('1.2.3.4::'), undefined, 'a dot first: IPv4 parsing, which fails');
  t.equal(parseIPSloppy('localhost'), undefined);
});

t.test('net.IP predicates', async (t) => {
  t.ok(isIPv4(parseIPSloppy('10.0.0.1')!));
  t.ok(isIPv4(parseIPSloppy('::ffff:10.0.0.1')!));
  t.notOk(isIPv4(parseIPSloppy('::1.2.3.4')!));
  t.ok(isIPv6(parseIPSloppy('fd00::1')!));
  t.notOk(isIPv6(parseIPSloppy('10.0.0.1')!));
  t.ok(isUnspecified(parseIPSloppy('::ffff:0.0.0.0')!));
  t.ok(isUnspecified(parseIPSloppy('0:0:0:0:0:0:0:0')!));
  t.notOk(isUnspecified(parseIPSloppy('0.0.0.1')!));
  t.notOk(isUnspecified(parseIPSloppy('::1')!));
});
