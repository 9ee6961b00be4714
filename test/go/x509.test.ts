import t from 'tap';
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseCertsPem } from '../../src/kubelet/node-setup/client-ca.js';

// The port (src/go/pem.ts, src/go/x509/) against the real Go: test/go/x509-verdict/main.go run
// with the installed toolchain (Go 1.26: the 'end-first' pem.Decode) on certificates openssl makes,
// and on fast-check mutations of their DER and PEM text.
const here = path.dirname(fileURLToPath(import.meta.url));
const hasGo = spawnSync('go', ['version']).status === 0;
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
const skip = !hasGo ? 'SKIPPED: the go command is not installed, the port is not compared with Go' : !hasOpenssl ? 'SKIPPED: the openssl command is not installed' : false;
if (skip) console.error(`# x509 port vs Go: ${skip}`);

const goMinor = (() => {
  const m = /go1\.(\d+)/.exec(spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).stdout ?? '');
  return m ? Number(m[1]) : 0;
})();

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

t.test('the x509/pem port agrees with Go on certificates and their mutations', { skip, timeout: 600_000 }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-x509-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const bin = path.join(dir, 'x509-verdict');
  const build = spawnSync('go', ['build', '-o', bin, '.'], { cwd: path.join(here, 'x509-verdict'), encoding: 'utf8', env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod', CGO_ENABLED: '0' } });
  t.equal(build.status, 0, `go build: ${build.stderr}`);
  t.ok(goMinor >= 26, `compared with go1.${goMinor}: the port's 'end-first' PEM decoder is Go 1.26's`);
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
  for (const negativeSerialAllowed of [false, true]) {
    const run = spawnSync(bin, ['-'], { input: files.join('\n'), encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, GODEBUG: negativeSerialAllowed ? 'x509negativeserial=1' : '' } });
    t.equal(run.status, 0, run.stderr);
    const verdicts: GoVerdict[] = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as GoVerdict);
    t.equal(verdicts.length, cases.length);
    const wrongVerdict: string[] = [];
    const wrongWords: string[] = [];
    let undecided = 0;
    let inexact = 0;
    let refused = 0;
    for (const [i, go] of verdicts.entries()) {
      const port = parseCertsPem(cases[i]!.text, 'end-first', { minor: goMinor, negativeSerialAllowed });
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
    const label = negativeSerialAllowed ? 'GODEBUG=x509negativeserial=1' : 'default GODEBUG';
    if (process.env["X509_HISTOGRAM"]) { const h = new Map<string, number>(); for (const v of verdicts) h.set(v.error ?? "ok", (h.get(v.error ?? "ok") ?? 0) + 1); console.error([...h].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}`).join("\n")); }
    t.same(wrongVerdict, [], `${label}: the same verdict as Go on every decided case`);
    t.same(wrongWords, [], `${label}: Go's own words wherever the port claims them`);
    t.ok(undecided < cases.length / 20, `${label}: ${undecided} of ${cases.length} undecided (URI SANs, name constraints, zoned times), ${inexact} refused with inexact words, ${refused} refused by Go`);
    t.ok(refused > cases.length / 4, `${label}: the mutations reach Go's refusals (${refused})`);
  }
  const named = (name: string) => parseCertsPem(Buffer.from(bases.get(name)!, 'latin1'), 'end-first', { minor: goMinor, negativeSerialAllowed: false });
  t.same(named('negative-serial-30'), { ok: false, error: 'x509: negative serial number', exact: true });
  t.match(named('san-uri-30'), { undecidable: /URI/ });
  t.match(named('name-constraints-30'), { undecidable: /name constraints/ });
  t.same(named('secp256k1-ca-30'), { ok: false, error: 'x509: unsupported elliptic curve', exact: true });
});
