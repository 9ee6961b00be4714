import t from 'tap';
import { parseGoCertificate } from '../../src/go/x509/parser.js';
import { checkClientCaFile } from '../../src/kubelet/node-setup/client-ca.js';
import { decodePem } from '../../src/go/pem.js';
import { decodeGoStdBase64 } from '../../src/go/base64.js';
import type { PathFact } from '../../src/model/node.js';
import { NEXT_MINOR } from '../../src/kubelet/data/minors.js';

// The Go-version rules of the port (src/go/x509/parser.go's differences between Go 1.18 and
// 1.26), on certificates built here byte by byte; test/go/x509.test.ts compares with real Go.
const length = (n: number) => (n < 128 ? Buffer.of(n) : n < 256 ? Buffer.of(0x81, n) : Buffer.of(0x82, n >> 8, n & 0xff));
const tlv = (tag: number, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.of(tag), length(body.length), body]);
};
const hex = (h: string) => Buffer.from(h, 'hex');
const seq = (...parts: Buffer[]) => tlv(0x30, ...parts);
const ED25519 = seq(tlv(0x06, hex('2b6570')));
const name = (value: Buffer = tlv(0x0c, Buffer.from('ca'))) => seq(tlv(0x31, seq(tlv(0x06, hex('550403')), value)));
const ext = (oid: string, value: Buffer, critical = false) => seq(tlv(0x06, hex(oid)), ...(critical ? [tlv(0x01, hex('ff'))] : []), tlv(0x04, value));

interface Shape {
  version?: Buffer;
  serial?: Buffer;
  subject?: Buffer;
  extensions?: Buffer[];
}
function certificate(shape: Shape = {}): Buffer {
  const tbs = seq(
    shape.version ?? tlv(0xa0, tlv(0x02, hex('02'))),
    tlv(0x02, shape.serial ?? hex('01')),
    ED25519,
    name(),
    seq(tlv(0x17, Buffer.from('240101000000Z')), tlv(0x17, Buffer.from('340101000000Z'))),
    shape.subject ?? name(),
    seq(ED25519, tlv(0x03, Buffer.alloc(33))),
    ...(shape.extensions ? [tlv(0xa3, seq(...shape.extensions))] : []),
  );
  return seq(tbs, ED25519, tlv(0x03, Buffer.alloc(65)));
}
const parse = (der: Buffer, minor: number, negativeSerialAllowed = false) => parseGoCertificate(der, { minor, negativeSerialAllowed });
const refused = (error: string) => ({ ok: false, error, exact: true });
const OK = { ok: true };

t.test('a plain certificate parses under every Go minor', async (t) => {
  for (let minor = 18; minor <= 26; minor++) t.same(parse(certificate(), minor), OK, `go1.${minor}`);
  t.same(parse(Buffer.concat([certificate(), Buffer.of(0)]), 26), refused('x509: trailing data'));
  t.same(parse(certificate({ version: tlv(0xa0, tlv(0x02, hex('7fffffffffffffff'))) }), 26), OK, 'MaxInt64 wraps round on ++ and passes the version check (as Go)');
  t.same(parse(certificate({ version: tlv(0xa0, tlv(0x02, hex('03'))) }), 26), refused('x509: invalid version'));
});

t.test('negative serial numbers: refused from Go 1.23 unless x509negativeserial=1', async (t) => {
  const negative = certificate({ serial: hex('fb') });
  t.same(parse(negative, 22), OK);
  t.same(parse(negative, 23), refused('x509: negative serial number'));
  t.same(parse(negative, 23, true), OK);
});

t.test('duplicate extensions: accepted by 1.18, refused from 1.19, the OID named from 1.23', async (t) => {
  const skid = ext('551d0e', tlv(0x04, hex('01')));
  const twice = certificate({ extensions: [skid, skid] });
  t.same(parse(twice, 18), OK);
  t.same(parse(twice, 22), refused('x509: certificate contains duplicate extensions'));
  t.same(parse(twice, 23), refused('x509: certificate contains duplicate extension with OID "2.5.29.14"'));
});

t.test('basic constraints: the " b" suffix up to 1.20, a negative path length refused from 1.25', async (t) => {
  const badBoolean = certificate({ extensions: [ext('551d13', seq(tlv(0x01, hex('01'))))] });
  t.same(parse(badBoolean, 20), refused('x509: invalid basic constraints b'));
  t.same(parse(badBoolean, 21), refused('x509: invalid basic constraints'));
  const negativePath = certificate({ extensions: [ext('551d13', seq(tlv(0x01, hex('ff')), tlv(0x02, hex('ff'))))] });
  t.same(parse(negativePath, 24), OK);
  t.same(parse(negativePath, 25), refused('x509: invalid basic constraints'));
});

t.test('names: BMPString surrogates refused from 1.25; other string types', async (t) => {
  const surrogate = certificate({ subject: name(tlv(0x1e, hex('d800'))) });
  t.same(parse(surrogate, 24), OK);
  t.same(parse(surrogate, 25), refused('x509: invalid RDNSequence: invalid attribute value: invalid BMPString'));
  t.same(parse(certificate({ subject: name(tlv(0x13, Buffer.from('a_b'))) }), 26), refused('x509: invalid RDNSequence: invalid attribute value: invalid PrintableString'));
  t.same(parse(certificate({ subject: name(tlv(0x02, hex('01'))) }), 26), refused('x509: invalid RDNSequence: invalid attribute value: unsupported string type: 2'));
});

t.test('OIDs: a leading 0x80 octet refused from 1.21; policies by newOIDFromDER from 1.22, repeats refused from 1.24', async (t) => {
  const padded = certificate({ extensions: [ext('2b80060105', hex('0500'))] });
  t.same(parse(padded, 20), OK);
  t.same(parse(padded, 21), refused('x509: malformed extension OID field'));
  const hugeArc = certificate({ extensions: [ext('551d20', seq(seq(tlv(0x06, hex('2a8fffffffff7f')))))] });
  t.same(parse(hugeArc, 21), refused('x509: invalid certificate policies'));
  t.same(parse(hugeArc, 22), OK);
  const repeated = certificate({ extensions: [ext('551d20', seq(seq(tlv(0x06, hex('2a03'))), seq(tlv(0x06, hex('2a03')))))] });
  t.same(parse(repeated, 23), OK);
  t.same(parse(repeated, 24), refused('x509: invalid certificate policies'));
});

t.test('extensions Go parses only from some release on', async (t) => {
  const criticalAkid = certificate({ extensions: [ext('551d23', seq(tlv(0x80, hex('01'))), true)] });
  t.same(parse(criticalAkid, 22), OK);
  t.same(parse(criticalAkid, 23), refused('x509: authority key identifier incorrectly marked critical'));
  const inhibit = certificate({ extensions: [ext('551d36', tlv(0x04, hex('00')))] });
  t.same(parse(inhibit, 23), OK);
  t.same(parse(inhibit, 24), refused('x509: invalid inhibit any policy extension'));
  t.match(parse(certificate({ extensions: [ext('551d11', seq(tlv(0x86, Buffer.from('spiffe://x'))))] }), 26), { undecidable: /URI/ });
  t.match(parse(certificate({ extensions: [ext('551d1e', seq())] }), 26), { undecidable: /name constraints/ });
});

t.test('the client CA check asks every Go minor a kubelet minor was built with', async (t) => {
  const pem = (der: Buffer) => Buffer.from(`-----BEGIN CERTIFICATE-----\n${der.toString('base64')}\n-----END CERTIFICATE-----\n`);
  const fact = (data: Buffer): PathFact => ({ exists: true, type: 'file', mode: 0o644, uid: 0, gid: 0, content: { ok: true, data } });
  const negative = pem(certificate({ serial: hex('fb') }));
  t.same(checkClientCaFile(31, '/ca.crt', fact(negative)), { ok: true }, '1.31: go.mod says go 1.22.0, x509negativeserial=1');
  t.same(checkClientCaFile(32, '/ca.crt', fact(negative)), { ok: false, error: 'error loading CA bundle for "client-ca-bundle::/ca.crt": x509: negative serial number', inexact: false });
  t.match(checkClientCaFile(32, '/ca.crt', fact(negative), 'http2client=0,x509negativeserial=1'), { undecidable: /disagree/ }, 'GODEBUG in kubelet\'s environment names the setting');
  t.same(checkClientCaFile(32, '/ca.crt', fact(pem(certificate())), 'x509negativeserial=1'), { ok: true }, 'without a negative serial it does not matter');
  const skid = ext('551d0e', tlv(0x04, hex('01')));
  t.match(checkClientCaFile(24, '/ca.crt', fact(pem(certificate({ extensions: [skid, skid] })))), { undecidable: /go1\.18-go1\.20\) disagree/ }, 'Go 1.18 accepts, 1.19 refuses');
  const badBoolean = pem(certificate({ extensions: [ext('551d13', seq(tlv(0x01, hex('01'))))] }));
  t.same(checkClientCaFile(26, '/ca.crt', fact(badBoolean)), { ok: false, error: 'error loading CA bundle for "client-ca-bundle::/ca.crt": x509: invalid basic constraints b', inexact: true }, 'refused by go1.19-go1.21 in two wordings');
  t.match(checkClientCaFile(NEXT_MINOR, '/ca.crt', fact(badBoolean)), { undecidable: /not known/ });
  t.same(checkClientCaFile(36, '/ca.crt', fact(Buffer.from('-----BEGIN CERTIFICATE-----\nProc-Type: 4\n\nAAAA\n-----END CERTIFICATE-----\n'))), { ok: false, error: 'error loading CA bundle for "client-ca-bundle::/ca.crt": data does not contain any valid RSA or ECDSA certificates', inexact: false }, 'a block with headers is skipped');
});

t.test('pem.Decode and base64 as Go has them', async (t) => {
  const text = Buffer.from('junk\n-----BEGIN CERTIFICATE-----  \r\nAQID\r\n-----END CERTIFICATE----- \nrest');
  for (const decoder of ['begin-first', 'end-first'] as const) {
    const decoded = decodePem(text, decoder);
    t.same(decoded && [Buffer.from(decoded.block.bytes), Buffer.from(decoded.rest).toString()], [Buffer.of(1, 2, 3), 'rest'], decoder);
    t.equal(decodePem(Buffer.from('-----BEGIN X-----\nAQID\n-----END Y-----\n'), decoder), undefined, `${decoder}: END must name the same type`);
    // pem.go decodes removeSpacesAndTabs(rest[:endIndex]): spaces and tabs anywhere in the body.
    const spaced = decodePem(Buffer.from('-----BEGIN X-----\n A Q\t\tI D \n-----END X-----\n'), decoder);
    t.same(spaced && Buffer.from(spaced.block.bytes), Buffer.of(1, 2, 3), `${decoder}: spaces and tabs in the body are dropped`);
    t.equal(decodePem(Buffer.from('-----BEGIN X-----\nAQ\vID\n-----END X-----\n'), decoder), undefined, `${decoder}: other white space is not`);
  }
  t.same(decodeGoStdBase64(Buffer.from('AQ==\n')), Buffer.of(1));
  t.same(decodeGoStdBase64(Buffer.from('AQ=\n=')), Buffer.of(1), 'newlines inside the padding');
  t.equal(decodeGoStdBase64(Buffer.from('AQ')), undefined, 'padding is required');
  t.equal(decodeGoStdBase64(Buffer.from('AQ==AQ==')), undefined, 'nothing after padding');
  t.same(decodeGoStdBase64(Buffer.from('AR==')), Buffer.of(1), 'non-zero trailing bits: not Strict');
  t.equal(decodeGoStdBase64(Buffer.from('ab-_')), undefined, "the URL alphabet, which Node's decoder also takes, is refused");
  t.equal(decodeGoStdBase64(Buffer.from('AQ ==')), undefined, 'a space, which Node skips, is refused');
});
