// Many providers sharing the same matchImages pattern or cache duration (a common config, and
// `npm run bench`'s 1,000-provider node): the per-pattern work is done once per distinct value
// (src/lib/memo.ts), and every provider still gets exactly what it gets alone.
import t from 'tap';
import { validateCredentialProviderConfig } from '../../src/credentials/validate.js';
import { decodeCredentialProviderConfig } from '../../src/credentials/decode.js';
import { matchImagesCheck } from '../../src/checks/config-checks.js';
import type { CheckContext } from '../../src/checks/check.js';
import type { CredentialProvider } from '../../src/credentials/types.js';
import type { NodeModel } from '../../src/model/node.js';
import { requireTraits } from '../../src/kubelet/version.js';

const V1 = 'credentialprovider.kubelet.k8s.io/v1';
const provider = (name: string, matchImages: string[]): CredentialProvider => ({ name, matchImages, defaultCacheDuration: 600_000_000_000n, apiVersion: V1, args: [], env: [] });
const names = (n: number) => Array.from({ length: n }, (_, i) => `p${i}`);

t.test('validation: each provider with an invalid shared pattern gets the error it gets alone', async (t) => {
  const traits = requireTraits(29);
  const patterns = ['%invalid%', '*.azurecr.io', 'registry.io:abc', '%invalid%'];
  const alone = validateCredentialProviderConfig({ providers: [provider('p0', patterns)] }, traits, false);
  t.equal(alone.length, 3, 'two invalid patterns, one given twice');
  const many = validateCredentialProviderConfig({ providers: names(5).map((name) => provider(name, patterns)) }, traits, false);
  t.same(many, names(5).flatMap(() => alone), 'the same errors, in the same order, for every provider');
});

t.test('the never-matches check: each provider sharing a pattern is named, with the same words', async (t) => {
  const traits = requireTraits(30);
  const run = (providers: CredentialProvider[]) =>
    matchImagesCheck.run({
      model: {} as NodeModel,
      traits,
      flags: { configPath: '/etc/cp.yaml', binDir: '/bin' },
      registration: { config: { providers }, droppedFields: [], plugins: [] },
    } satisfies CheckContext);
  const patterns = ['https://*.azurecr.io', '*.azurecr.io', 'registry.io/team*', 'https://*.azurecr.io'];
  const alone = run([provider('p0', patterns)]);
  t.same(alone.map((f) => f.message.replace(/^.*: /, '')), [
    'it starts with a URL scheme ("https://"); kubelet adds "https://" itself, so the scheme becomes the host.',
    'its path "/team*" contains a glob character; globs work only in host labels and the path is compared as a plain prefix.',
    'it starts with a URL scheme ("https://"); kubelet adds "https://" itself, so the scheme becomes the host.',
  ]);
  const many = run(names(4).map((name) => provider(name, patterns)));
  t.same(many, names(4).flatMap((name) => alone.map((f) => ({ ...f, provider: name, message: f.message.replace('provider "p0"', `provider "${name}"`) }))));
});

t.test('decoding: every provider gets its own cache duration, shared or not, and a bad one still fails', async (t) => {
  const traits = requireTraits(29);
  const yaml = (durations: string[]) => `apiVersion: kubelet.config.k8s.io/v1
kind: CredentialProviderConfig
providers:
${durations.map((d, i) => `  - name: p${i}\n    apiVersion: ${V1}\n    defaultCacheDuration: "${d}"\n    matchImages: ["*.azurecr.io"]\n`).join('')}`;
  const decoded = decodeCredentialProviderConfig(yaml(['10m', '10m', '1h', '10m']), traits);
  t.same(decoded.ok && decoded.config.providers.map((p) => p.defaultCacheDuration), [600_000_000_000n, 600_000_000_000n, 3_600_000_000_000n, 600_000_000_000n]);
  t.match(decodeCredentialProviderConfig(yaml(['10m', '10x', '10x']), traits), { ok: false, error: /time: unknown unit "x" in duration "10x"/ });
});
