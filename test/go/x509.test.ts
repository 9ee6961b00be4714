import t, { type Test } from 'tap';
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseCertsPem } from '../../src/kubelet/node-setup/client-ca.js';
import type { PemDecoder } from '../../src/go/pem.js';

// The port (src/go/pem.ts, src/go/x509/) against the real Go: test/go/x509-verdict/main.go built
// with the installed toolchain (and any NODE_CHECK_X509_TOOLCHAINS names), on certificates openssl
// makes and on fast-check mutations of their DER tree, bytes and PEM text.
const here = path.dirname(fileURLToPath(import.meta.url));
const hasGo = spawnSync('go', ['version']).status === 0;
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const skip = !hasGo ? 'SKIPPED: the go command is not installed, the port is not compared with Go' : !hasOpenssl ? 'SKIPPED: the openssl command is not installed' : false;
if (skip) console.error(`# x509 port vs Go: ${skip}`);


interface GoVerdict {
  file: string;
  ok: boolean;
  error?: string;
}

function openssl(args: string[], cwd: string): void {
  const r = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
}

function toPem(der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${b64.replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
}
function fromPem(text: string): Buffer {
  return Buffer.from(text.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
}

/** Certificates in the shapes kubelet's CA bundles have, and the edges Go's parser decides on. */
function makeCertificates(dir: string): Map<string, string> {
  const keys: Record<string, string[]> = {
    rsa2048: ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'],
    rsa1024: ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024', '-pkeyopt', 'rsa_keygen_pubexp:3'],
    p224: ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-224'],
    p256: ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'],
    p384: ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384'],
    p521: ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-521'],
    secp256k1: ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:secp256k1'],
    ed25519: ['genpkey', '-algorithm', 'ed25519'],
    ed448: ['genpkey', '-algorithm', 'ed448'],
  };
  for (const [name, args] of Object.entries(keys)) openssl([...args, '-out', `${name}.key`], dir);
  const shapes: Record<string, { key: string; args: string[] }> = {};
  const ca = ['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,digitalSignature,keyEncipherment,keyCertSign', '-addext', 'subjectKeyIdentifier=hash', '-addext', 'authorityKeyIdentifier=keyid:always'];
  for (const key of Object.keys(keys)) shapes[`${key}-ca`] = { key, args: ['-subj', `/CN=${key}-ca`, ...ca] };
  const more: Record<string, string[]> = {
    'bare-v3': ['-subj', '/CN=bare'],
    'pathlen': ['-subj', '/O=org/CN=pathlen', '-addext', 'basicConstraints=critical,CA:TRUE,pathlen:3'],
    'san': ['-subj', '/CN=san', '-addext', 'subjectAltName=DNS:kubernetes.default.svc,DNS:*.example.com,IP:10.0.0.1,IP:fd00::1,email:ops@example.com'],
    'san-uri': ['-subj', '/CN=uri', '-addext', 'subjectAltName=URI:spiffe://cluster.local/ns/a'],
    'eku': ['-subj', '/CN=eku', '-addext', 'extendedKeyUsage=serverAuth,clientAuth,1.2.3.4.5.6'],
    'policies': ['-subj', '/CN=pol', '-addext', 'certificatePolicies=1.2.3.4,2.23.140.1.2.1'],
    'crl-aia': ['-subj', '/CN=crl', '-addext', 'crlDistributionPoints=URI:http://crl.example/ca.crl', '-addext', 'authorityInfoAccess=OCSP;URI:http://ocsp.example,caIssuers;URI:http://ca.example/ca.crt'],
    'name-constraints': ['-subj', '/CN=nc', '-addext', 'nameConstraints=critical,permitted;DNS:.example.com'],
    'unknown-critical': ['-subj', '/CN=unk', '-addext', '1.2.3.4.5=critical,DER:0500'],
    'policy-constraints': ['-subj', '/CN=pc', '-addext', 'policyConstraints=requireExplicitPolicy:1', '-addext', 'inhibitAnyPolicy=0'],
    'long-name': ['-multivalue-rdn', '-subj', `/C=US/ST=${'s'.repeat(128)}/L=${'l'.repeat(128)}/O=${'o'.repeat(64)}/OU=${'u'.repeat(64)}+OU=b/OU=${'v'.repeat(64)}/CN=${'c'.repeat(64)}/emailAddress=a@b.c`],
    'utf8-name': ['-utf8', '-subj', '/O=Zürich Größe/CN=名前'],
    'bmp-name': ['-utf8', '-subj', '/O=名前/CN=bmp', '-config', 'bmp.cnf'],
    'numeric-serial-big': ['-subj', '/CN=big', '-set_serial', '0x' + 'f'.repeat(40)],
    'negative-serial': ['-subj', '/CN=neg', '-set_serial', '-12345'],
    'zero-serial': ['-subj', '/CN=zero', '-set_serial', '0'],
  };
  for (const [name, args] of Object.entries(more)) shapes[name] = { key: name === 'negative-serial' ? 'p256' : 'rsa2048', args };
  fs.writeFileSync(path.join(dir, 'bmp.cnf'), '[req]\ndistinguished_name=dn\nstring_mask=pkix\n[dn]\n');
  const pems = new Map<string, string>();
  for (const [name, { key, args }] of Object.entries(shapes)) {
    for (const days of ['30', '36500']) {
      const out = `${name}-${days}.pem`;
      const base = ['req', '-x509', '-new', '-key', `${key}.key`, '-days', days, '-out', out];
      openssl([...base, ...args], dir);
      pems.set(`${name}-${days}`, fs.readFileSync(path.join(dir, out), 'latin1'));
    }
  }
  return pems;
}


/** A DER tree to mutate structurally: constructed elements, and OCTET/BIT STRINGs that hold DER. */
interface Node {
  tag: number;
  content: Buffer;
  children?: Node[];
  /** A BIT STRING's leading unused-bits byte, kept when its contents are parsed as DER. */
  bitPrefix?: boolean;
}
function parseTree(buf: Buffer): Node[] | undefined {
  const nodes: Node[] = [];
  let at = 0;
  while (at < buf.length) {
    if (buf.length - at < 2) return undefined;
    const tag = buf[at]!;
    let len = buf[at + 1]!;
    let header = 2;
    if (len & 0x80) {
      const n = len & 0x7f;
      if (n === 0 || n > 4 || at + 2 + n > buf.length) return undefined;
      len = 0;
      for (let i = 0; i < n; i++) len = len * 256 + buf[at + 2 + i]!;
      header += n;
    }
    if ((tag & 0x1f) === 0x1f || at + header + len > buf.length) return undefined;
    const content = buf.subarray(at + header, at + header + len);
    const node: Node = { tag, content };
    if (tag & 0x20) node.children = parseTree(content);
    else if (tag === 0x04 && content.length > 1) node.children = parseTree(content);
    else if (tag === 0x03 && content.length > 2 && content[0] === 0) {
      node.children = parseTree(content.subarray(1));
      if (node.children) node.bitPrefix = true;
    }
    if (!node.children) delete node.children;
    nodes.push(node);
    at += header + len;
  }
  return nodes;
}
function encodeLength(n: number): Buffer {
  if (n < 128) return Buffer.of(n);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
function encodeTree(nodes: readonly Node[]): Buffer {
  return Buffer.concat(nodes.map((n) => {
    const inner = n.children ? Buffer.concat([n.bitPrefix ? Buffer.of(0) : Buffer.alloc(0), encodeTree(n.children)]) : n.content;
    return Buffer.concat([Buffer.of(n.tag), encodeLength(inner.length), inner]);
  }));
}
function listsOf(nodes: Node[], out: Node[][] = []): Node[][] {
  out.push(nodes);
  for (const n of nodes) if (n.children) listsOf(n.children, out);
  return out;
}
// Values Go's parser decides on: integers at the edges of minimal/negative, times at the edges of
// the calendar and of UTCTime's century, strings with bytes outside each string type.
const INTERESTING_TAGS = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x0c, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1e, 0x30, 0x31, 0x80, 0x81, 0x82, 0x86, 0x87, 0xa0, 0xa1, 0xa2, 0xa3, 0x1f, 0x3f];
const INTERESTING_CONTENTS = [
  '', '00', 'ff', '80', '007f', 'ff80', '0080', '01', '7fffffffffffffff', '8000000000000000', '00ffffffffffffffff', 'ff7fffffffffffffff', '0500',
  '2b0601', '2b80', '2a864886f70d010101', '2b0601050507010180', '8001', '2b8080', '06', '03',
  ...['240101000000Z', '2401010000Z', '240229000000Z', '230229000000Z', '000229000000Z', '240101240000Z', '240101006000Z', '240101000060Z', '491231235959Z', '500101000000Z', '240101000000.5Z', '240101000000z', '240101000000+0100', '20240101000000Z', '20500101000000Z', '99991231235959Z', '00000101000000Z', '20240101000000.123Z', '2024010100000Z'].map((s) => Buffer.from(s).toString('hex')),
  ...['abc', 'a*b&c', 'a_b', 'caf\u00e9', 'x@y', '12 34', '1a'].map((s) => Buffer.from(s, 'latin1').toString('hex')),
  'c3a9', 'c3', 'eda080', 'f4908080', '00410042', '0041d800', 'fffe', 'fdd0', '004100', '00410000', '0000',
];

interface Judge {
  readonly version: string;
  readonly minor: number;
  readonly decoder: PemDecoder;
  readonly bin: string;
}
/** encoding/pem's Decode became 'end-first' in go1.24.10 and go1.25.4 (src/go/pem.ts). */
function decoderOf(version: string): PemDecoder {
  const [, minor, patch] = /^go1\.(\d+)(?:\.(\d+))?/.exec(version)!.map(Number) as [number, number, number];
  if (minor >= 26 || (minor === 25 && (patch || 0) >= 4) || (minor === 24 && (patch || 0) >= 10)) return 'end-first';
  return 'begin-first';
}
/**
 * The installed Go, and any toolchain NODE_CHECK_X509_TOOLCHAINS names ("go1.20.14 go1.22.12":
 * fetched by the go command from the module proxy, golang.org/toolchain), built from a copy whose
 * go.mod says `go 1.18` so that old toolchains accept it.
 */
function buildJudges(t: Test, dir: string): Judge[] {
  const judges: Judge[] = [];
  const build = (version: string, toolchain: string, goLine: string) => {
    const src = path.join(dir, `src-${version}`);
    fs.mkdirSync(src);
    fs.copyFileSync(path.join(here, 'x509-verdict', 'main.go'), path.join(src, 'main.go'));
    fs.writeFileSync(path.join(src, 'go.mod'), `module nodecheck/x509verdict\n\ngo ${goLine}\n`);
    const bin = path.join(dir, `x509-verdict-${version}`);
    const r = spawnSync('go', ['build', '-o', bin, '.'], { cwd: src, encoding: 'utf8', env: { ...process.env, GOTOOLCHAIN: toolchain, GOFLAGS: '-mod=mod', CGO_ENABLED: '0' } });
    t.equal(r.status, 0, `go build with ${version}: ${r.stderr}`);
    judges.push({ version, minor: Number(/^go1\.(\d+)/.exec(version)![1]), decoder: decoderOf(version), bin });
  };
  const installed = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).stdout.trim();
  build(installed, 'local', '1.26');
  for (const version of (process.env['NODE_CHECK_X509_TOOLCHAINS'] ?? '').split(/\s+/).filter(Boolean)) build(version, version, '1.18');
  return judges;
}

t.test('the x509/pem port agrees with Go on certificates and their mutations', { skip, timeout: 600_000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-x509-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const judges = buildJudges(t, dir);
  const bases = makeCertificates(dir);

  const cases: { name: string; text: Buffer }[] = [];
  for (const [name, pem] of bases) cases.push({ name, text: Buffer.from(pem, 'latin1') });
  const all = [...bases.values()];
  cases.push({ name: 'bundle', text: Buffer.from(all.join(''), 'latin1') });
  cases.push({ name: 'bundle-crlf', text: Buffer.from(all.join('').replace(/\n/g, '\r\n'), 'latin1') });
  cases.push({ name: 'headers', text: Buffer.from(all[0]!.replace('-----\n', '-----\nProc-Type: 4,ENCRYPTED\n\n'), 'latin1') });

  const ders = all.map(fromPem);
  // DER mutations: byte changes, deletions, insertions, truncations, anywhere.
  const edit = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), value: fc.constant(0) }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat(), value: fc.constant(0) }),
  );
  const derCase = fc.record({ base: fc.nat({ max: ders.length - 1 }), edits: fc.array(edit, { minLength: 1, maxLength: 3 }) });
  for (const [i, c] of fc.sample(derCase, { numRuns: 2500, seed: 20261201 }).entries()) {
    let der = Buffer.from(ders[c.base]!);
    for (const e of c.edits) {
      const at = e.at % (der.length + 1);
      if (e.kind === 'set' && at < der.length) der[at] = e.value;
      else if (e.kind === 'delete') der = Buffer.concat([der.subarray(0, at), der.subarray(at + 1)]);
      else if (e.kind === 'insert') der = Buffer.concat([der.subarray(0, at), Buffer.of(e.value), der.subarray(at)]);
      else if (e.kind === 'truncate') der = der.subarray(0, at);
    }
    cases.push({ name: `der-${i}`, text: Buffer.from(toPem(der), 'latin1') });
  }
  // Structural mutations: one element of the DER tree (extension values and keys included) gets
  // another tag, another value, is dropped, doubled or swapped; every length is then re-encoded.
  const trees = ders.map((d) => parseTree(d)!);
  const structEdit = fc.record({ list: fc.nat(), at: fc.nat(), kind: fc.nat({ max: 5 }), tag: fc.nat({ max: INTERESTING_TAGS.length - 1 }), value: fc.nat({ max: INTERESTING_CONTENTS.length - 1 }), bytes: fc.uint8Array({ maxLength: 6 }) });
  const structCase = fc.record({ base: fc.nat({ max: trees.length - 1 }), edits: fc.array(structEdit, { minLength: 1, maxLength: 2 }) });
  for (const [i, c] of fc.sample(structCase, { numRuns: 3000, seed: 5280 }).entries()) {
    const tree = structuredClone(trees[c.base]!).map(function revive(n: Node): Node {
      return { ...n, content: Buffer.from(n.content), ...(n.children ? { children: n.children.map(revive) } : {}) };
    });
    for (const e of c.edits) {
      const lists = listsOf(tree);
      const list = lists[e.list % lists.length]!;
      if (list.length === 0) continue;
      const at = e.at % list.length;
      const node = list[at]!;
      if (e.kind === 0) node.tag = INTERESTING_TAGS[e.tag]!;
      else if (e.kind === 1) {
        delete node.children;
        node.content = Buffer.from(INTERESTING_CONTENTS[e.value]!, 'hex');
      } else if (e.kind === 2) {
        delete node.children;
        node.content = Buffer.from(e.bytes);
      } else if (e.kind === 3) list.splice(at, 1);
      else if (e.kind === 4) list.splice(at, 0, structuredClone(node));
      else if (at + 1 < list.length) [list[at], list[at + 1]] = [list[at + 1]!, node];
    }
    cases.push({ name: `struct-${i}`, text: Buffer.from(toPem(encodeTree(tree)), 'latin1') });
  }
  // PEM text mutations: the tokens pem.Decode looks at, inserted or removed anywhere.
  const tokens = ['\n', '\r\n', ' ', '\t', '\r', '-', '=', ':', 'A', '-----BEGIN CERTIFICATE-----\n', '-----END CERTIFICATE-----', '\n-----END CERTIFICATE-----\n', 'Proc-Type: 4\n', '-----BEGIN X-----\n', '\v', '\u00a0'];
  const textEdit = fc.record({ at: fc.nat(), token: fc.nat({ max: tokens.length - 1 }), remove: fc.nat({ max: 3 }) });
  const pemCase = fc.record({ bases: fc.array(fc.nat({ max: all.length - 1 }), { minLength: 1, maxLength: 3 }), edits: fc.array(textEdit, { minLength: 1, maxLength: 4 }) });
  for (const [i, c] of fc.sample(pemCase, { numRuns: 1500, seed: 1201 }).entries()) {
    let text = c.bases.map((b) => all[b]!).join('');
    for (const e of c.edits) {
      const at = e.at % (text.length + 1);
      text = text.slice(0, at) + tokens[e.token]! + text.slice(at + e.remove);
    }
    cases.push({ name: `pem-${i}`, text: Buffer.from(text, 'latin1') });
  }

  const files = cases.map((c, i) => {
    const file = path.join(dir, `case-${i}.pem`);
    fs.writeFileSync(file, c.text);
    return file;
  });
  for (const judge of judges) for (const negativeSerialAllowed of [false, true]) {
    // Explicit either way: a toolchain built from a `go 1.18` go.mod would default to 1.
    const run = spawnSync(judge.bin, ['-'], { input: files.join('\n'), encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, GODEBUG: `x509negativeserial=${negativeSerialAllowed ? 1 : 0}` } });
    t.equal(run.status, 0, run.stderr);
    const verdicts: GoVerdict[] = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as GoVerdict);
    t.equal(verdicts.length, cases.length);
    const wrongVerdict: string[] = [];
    const wrongWords: string[] = [];
    let undecided = 0;
    let inexact = 0;
    let refused = 0;
    for (const [i, go] of verdicts.entries()) {
      const port = parseCertsPem(cases[i]!.text, judge.decoder, { minor: judge.minor, negativeSerialAllowed });
      if ('undecidable' in port) {
        undecided++;
        continue;
      }
      if (!go.ok) refused++;
      if (port.ok !== go.ok) wrongVerdict.push(`${cases[i]!.name}: Go ${go.ok ? 'accepts' : `refuses (${go.error})`}, port ${port.ok ? 'accepts' : `refuses (${port.error})`}`);
      else if (!port.ok && !go.ok) {
        if (!port.exact) inexact++;
        else if (port.error !== go.error) wrongWords.push(`${cases[i]!.name}: Go "${go.error}", port "${port.error}"`);
      }
    }
    const label = `${judge.version}, GODEBUG=x509negativeserial=${negativeSerialAllowed ? 1 : 0}`;
    if (process.env['NODE_CHECK_X509_HISTOGRAM']) {
      // What the cases reach in Go, to judge the mutators: each of Go's answers, how often.
      const counts = new Map<string, number>();
      for (const v of verdicts) counts.set(v.error ?? 'ok', (counts.get(v.error ?? 'ok') ?? 0) + 1);
      console.error([...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `# ${n} ${k}`).join('\n'));
    }
    t.same(wrongVerdict, [], `${label}: the same verdict as Go on every decided case`);
    t.same(wrongWords, [], `${label}: Go's own words wherever the port claims them`);
    t.ok(undecided < cases.length / 20, `${label}: ${undecided} of ${cases.length} undecided (URI SANs, name constraints, zoned times), ${inexact} refused with inexact words, ${refused} refused by Go`);
    t.ok(refused > cases.length / 4, `${label}: the mutations reach Go's refusals (${refused})`);
  }
  const named = (name: string) => parseCertsPem(Buffer.from(bases.get(name)!, 'latin1'), 'end-first', { minor: 26, negativeSerialAllowed: false });
  t.same(named('negative-serial-30'), { ok: false, error: 'x509: negative serial number', exact: true });
  t.match(named('san-uri-30'), { undecidable: /URI/ });
  t.match(named('name-constraints-30'), { undecidable: /name constraints/ });
  t.same(named('secp256k1-ca-30'), { ok: false, error: 'x509: unsupported elliptic curve', exact: true });
});
