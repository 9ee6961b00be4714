import t from 'tap';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fallbackDigest, fallbackStatus, parseFallbackState, readFallbackState, serializeFallbackState, type FallbackState } from '../../src/fallback/state.js';
import { HidingRootFs } from '../../src/fallback/hiding-root-fs.js';
import { RootFs } from '../../src/host/root-fs.js';

const DROP_IN = '/run/systemd/system/kubelet.service.d/99-node-check-fallback.conf';
const STATE = '/run/node-check/fallback.json';
const DROP_IN_TEXT = '# node-check fallback for kubelet.service, active since 2026-03-01T10:00:00.000Z.\n# Removed credential providers: acr-credential-provider gcr-credential-provider\n[Service]\nExecStart=\nExecStart=/usr/bin/kubelet\n';

function rootWith(t: { teardown: (fn: () => void) => void }, files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'node-check-state-'));
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }));
  for (const [p, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
    fs.writeFileSync(path.join(root, p), content);
  }
  return root;
}

const state: FallbackState = {
  since: '2026-03-01T10:00:00.000Z',
  reason: 'acr missing',
  removedProviders: ['acr-credential-provider'],
  dropInPath: DROP_IN,
  unit: 'kubelet.service',
  digest: fallbackDigest([{ path: DROP_IN, content: DROP_IN_TEXT }]),
};

t.test('a recorded, intact fallback is active', async (t) => {
  const root = rootWith(t, { [STATE]: serializeFallbackState(state), [DROP_IN]: DROP_IN_TEXT });
  const reading = readFallbackState(new RootFs(root));
  t.same(reading, { state, active: true, intact: true, problems: [] });
  t.same(fallbackStatus(reading, true), { enabled: true, active: true, reason: 'acr missing', since: state.since, removedProviders: ['acr-credential-provider'], dropInPath: DROP_IN });
});

t.test('no record and no drop-in: nothing, silently', async (t) => {
  t.same(readFallbackState(new RootFs(rootWith(t, {}))), { active: false, intact: false, problems: [] });
});

t.test('garbage is no state, and says so with the file and line', async (t) => {
  const cases: [string, RegExp][] = [
    ['{\n  "unit": "kubelet.service",\n  oops\n}', /fallback\.json:3: not valid JSON/],
    ['[1,2]', /not a JSON object/],
    [JSON.stringify({ ...state, since: 'yesterday' }), /"since"/],
    [JSON.stringify({ ...state, dropInPath: '/etc/systemd/system/kubelet.service' }), /"dropInPath" is not/],
    [JSON.stringify({ ...state, filteredConfigPath: '/etc/kubernetes/credential-providers/acr-credential-provider.yaml' }), /"filteredConfigPath" is not/],
    [JSON.stringify({ ...state, unit: 'no unit' }), /"unit"/],
    ['\u0000\u0001', /not valid JSON/],
  ];
  for (const [text, problem] of cases) {
    const reading = readFallbackState(new RootFs(rootWith(t, { [STATE]: text })));
    t.equal(reading.state, undefined, text);
    t.equal(reading.active, false);
    t.match(reading.problems[0], problem);
  }
});

t.test('a drop-in without a valid record is recovered so that it can be reverted', async (t) => {
  const root = rootWith(t, { [STATE]: 'not json', [DROP_IN]: DROP_IN_TEXT });
  const reading = readFallbackState(new RootFs(root), { now: new Date('2026-03-02T00:00:00Z') });
  t.equal(reading.active, true);
  t.equal(reading.intact, false);
  t.match(reading.state, { since: '2026-03-01T10:00:00.000Z', removedProviders: ['acr-credential-provider', 'gcr-credential-provider'], dropInPath: DROP_IN, unit: 'kubelet.service' });
  t.equal(reading.state?.digest, undefined, 'no digest: the next plan rewrites or removes it');
  t.equal(reading.problems.length, 2);
});

t.test('files that differ from the record are not intact', async (t) => {
  const edited = readFallbackState(new RootFs(rootWith(t, { [STATE]: serializeFallbackState(state), [DROP_IN]: DROP_IN_TEXT + '# edited\n' })));
  t.same([edited.active, edited.intact, edited.state?.digest], [true, false, undefined]);
  const missing = readFallbackState(new RootFs(rootWith(t, { [STATE]: serializeFallbackState(state) })));
  t.same([missing.active, missing.intact], [false, false]);
  t.match(missing.problems[0], /not in effect/);
});

t.test('the record round-trips', async (t) => {
  const parsed = parseFallbackState(serializeFallbackState(state));
  t.same(parsed, { state });
});

t.test('HidingRootFs hides the drop-in from stat, read and directory listings', async (t) => {
  const root = rootWith(t, { [DROP_IN]: DROP_IN_TEXT, '/run/systemd/system/kubelet.service.d/20-x.conf': '[Service]\n' });
  const hiding = new HidingRootFs(root, [DROP_IN]);
  t.equal(hiding.readFile(DROP_IN).ok, false);
  t.equal(hiding.stat(DROP_IN).ok, false);
  t.equal(hiding.readFile('/run/systemd/system/kubelet.service.d/../kubelet.service.d/99-node-check-fallback.conf').ok, false);
  const listed = hiding.readdir('/run/systemd/system/kubelet.service.d');
  t.same(listed.ok && listed.entries.map((e) => e.name), ['20-x.conf']);
  t.equal(new RootFs(root).readFile(DROP_IN).ok, true, 'a plain RootFs still sees it');
});
