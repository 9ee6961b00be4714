// The fallback (docs/fallback.md) end to end on booted systemd 252 nodes set up like the seed node,
// with `fallback: true` in /etc/node-check/config.yaml: preflight in kubelet's ExecStartPre writes
// the /run drop-in and reloads systemd, and kubelet starts in that same start job without the
// missing provider; nothing the machine-config daemon manages changes; installing the plugin and
// restarting restores the original command line; `fallback revert` cleans /run; a /run emptied
// as by a reboot means a fresh decision.
import t, { type Test } from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { findingKind } from '../../src/catalog/findings.js';
import type { BootedNode } from '../harness/nspawn.js';
import { requireNodes } from '../harness/tools.js';
import {
  ACR_PLUGIN, BIN_DIR, bootKubeletNode, credentialArgs, filesBelow, managedFiles, must, PROVIDER_CONFIG, recordedArgv, SEED, TEXTFILE, UNIT, unitProperties,
} from './kubelet-node.js';

const BUNDLE = fileURLToPath(new URL('../../dist/node-check.cjs', import.meta.url));
const FALLBACK_ACTIVE = findingKind('fallback-active')!;
const FALLBACK_ON = 'fallback: true\n';
const RUN_STATE_DIR = '/run/node-check';

/** What is under /run/node-check but the journal's per-boot record of repeats, which is not the fallback's and stays. */
async function fallbackFilesBelow(node: BootedNode): Promise<string[]> {
  return (await filesBelow(node, RUN_STATE_DIR)).filter((path) => path !== `${RUN_STATE_DIR}/journal` && !path.startsWith(`${RUN_STATE_DIR}/journal/`));
}
const RUN_DROP_IN_DIR = '/run/systemd/system/kubelet.service.d';
const ORIGINAL_CREDENTIAL_ARGS = [`--image-credential-provider-bin-dir=${BIN_DIR}`, `--image-credential-provider-config=${PROVIDER_CONFIG}`];

// The seed's ACR config plus a provider whose plugin the node has.
const SEED_CONFIG = readFileSync(join(SEED, 'etc', 'kubernetes', 'credential-providers', 'acr-credential-provider.yaml'), 'utf8');
const TWO_PROVIDERS = `${SEED_CONFIG.trimEnd()}
  - name: ecr-credential-provider
    apiVersion: credentialprovider.kubelet.k8s.io/v1
    defaultCacheDuration: "12h"
    matchImages:
      - "*.dkr.ecr.*.amazonaws.com"
`;

interface FallbackJson {
  active: boolean;
  reason?: string;
  since?: string;
  removedProviders?: string[];
  filteredConfigPath?: string;
}

/** `systemctl start|restart kubelet` must succeed; returns how long it took. */
async function startKubelet(t: Test, node: BootedNode, verb: 'start' | 'restart'): Promise<number> {
  const started = Date.now();
  const result = await node.exec(['systemctl', verb, UNIT]);
  const ms = Date.now() - started;
  t.equal(result.exitCode, 0, `systemctl ${verb} ${UNIT} succeeds${result.exitCode === 0 ? '' : `: ${result.stderr}`}`);
  return ms;
}

/** Kubelet came up in one start job: running, ready (Type=notify), never restarted by systemd. */
async function runsFirstTime(t: Test, node: BootedNode): Promise<void> {
  t.same(await unitProperties(node, ['ActiveState', 'SubState', 'NRestarts', 'Result']), { ActiveState: 'active', SubState: 'running', NRestarts: '0', Result: 'success' }, 'kubelet is active in the same start job');
}

async function checkJson(node: BootedNode): Promise<{ kubeletWillStart: boolean | null; fallback: FallbackJson }> {
  const run = await node.exec(['node-check', 'check', '--output', 'json']);
  return JSON.parse(run.stdout) as { kubeletWillStart: boolean | null; fallback: FallbackJson };
}

async function fallbackStatus(node: BootedNode): Promise<FallbackJson> {
  return JSON.parse((await must(node, ['node-check', 'fallback', 'status', '--output', 'json'])).stdout) as FallbackJson;
}

function flagValue(argv: readonly string[], flag: string): string | undefined {
  return argv.find((arg) => arg.startsWith(`${flag}=`))?.slice(flag.length + 1);
}

t.test('the fallback under the real systemd 252 and journald', async (t) => {
  if (!requireNodes(t)) return;
  if (!existsSync(BUNDLE)) {
    t.fail(`${BUNDLE} is missing: run node scripts/build.mjs first`);
    return;
  }
  const booting = Date.now();
  const [node, twoProviders] = await Promise.all([
    bootKubeletNode({ t, nodeCheckConfig: FALLBACK_ON }),
    bootKubeletNode({ t, nodeCheckConfig: FALLBACK_ON, providerConfig: TWO_PROVIDERS, plugins: ['ecr-credential-provider'] }),
  ]);
  t.comment(`two nodes booted in ${Date.now() - booting} ms`);
  const managed = await managedFiles(node);
  t.match(managed, PROVIDER_CONFIG, 'the managed files include the provider config');
  let firstSince = '';

  t.test('acr missing: kubelet starts at once without the credential flags', async (t) => {
    const testStarted = new Date();
    t.comment(`systemctl start with the fallback took ${await startKubelet(t, node, 'start')} ms`);
    await runsFirstTime(t, node);
    const argv = await recordedArgv(node);
    t.ok(argv, 'the stand-in kubelet passed its checks and recorded its argv');
    t.same(credentialArgs(argv ?? []), [], 'kubelet runs without --image-credential-provider-*');
    t.ok(argv?.includes('--config=/etc/kubernetes/kubelet.conf') && argv.includes('--v=2'), 'the rest of the command line is kept');
    t.match((await unitProperties(node, ['DropInPaths']))['DropInPaths'], `${RUN_DROP_IN_DIR}/99-node-check-fallback.conf`, 'systemd loaded the runtime drop-in');

    const warnings = await node.journal([`MESSAGE_ID=${FALLBACK_ACTIVE.messageId}`]);
    t.ok(warnings.length >= 1, 'a fallback-active entry is in the journal');
    t.match(warnings[0], { PRIORITY: '4', SYSLOG_IDENTIFIER: 'node-check', NODE_CHECK_FINDING_ID: 'fallback-active', NODE_CHECK_PROVIDER: 'acr-credential-provider', OBJECT_SYSTEMD_UNIT: UNIT }, 'a warning, filed under kubelet.service');

    const metrics = (await must(node, ['cat', TEXTFILE])).stdout;
    t.match(metrics, /^nodecheck_fallback_active 1$/m, 'nodecheck_fallback_active 1');
    t.match(metrics, /^nodecheck_kubelet_start_ok 1$/m);

    const report = await checkJson(node);
    t.equal(report.kubeletWillStart, true);
    t.match(report.fallback, { active: true, removedProviders: ['acr-credential-provider'] }, 'check --output json: fallback.active');
    t.match(report.fallback.reason, /acr-credential-provider/, 'with the reason');
    const since = new Date(report.fallback.since ?? '');
    t.ok(since >= new Date(testStarted.getTime() - 1000) && since <= new Date(), `and since when (${report.fallback.since})`);
    firstSince = report.fallback.since ?? '';

    t.equal(await managedFiles(node), managed, 'no file under /etc/kubernetes or /etc/systemd/system/kubelet.service* changed');
  });

  t.test('/run emptied as by a reboot: the next start decides afresh', async (t) => {
    await must(node, ['systemctl', 'stop', UNIT]);
    await must(node, ['rm', '-rf', RUN_STATE_DIR, RUN_DROP_IN_DIR, '/run/stand-in-kubelet.argv']);
    await must(node, ['systemctl', 'daemon-reload']);
    t.notMatch((await unitProperties(node, ['DropInPaths']))['DropInPaths'], '/run/', 'systemd no longer sees a runtime drop-in');
    t.equal((await fallbackStatus(node)).active, false, 'fallback status: not active');

    await startKubelet(t, node, 'start');
    await runsFirstTime(t, node);
    t.same(credentialArgs((await recordedArgv(node)) ?? ['missing']), [], 'kubelet again runs without the credential flags');
    const status = await fallbackStatus(node);
    t.equal(status.active, true, 'the fallback is in place again');
    t.ok(new Date(status.since ?? '') > new Date(firstSince), `a new decision: since ${status.since}, before ${firstSince}`);
    t.equal(await managedFiles(node), managed, 'managed files unchanged');
  });

  t.test('the plugin is installed: a restart brings back the original command line', async (t) => {
    await node.writeFile(ACR_PLUGIN, '#!/bin/sh\nexit 0\n', 0o755);
    t.comment(`systemctl restart after the plugin arrived took ${await startKubelet(t, node, 'restart')} ms`);
    await runsFirstTime(t, node);
    t.same(credentialArgs((await recordedArgv(node)) ?? []), ORIGINAL_CREDENTIAL_ARGS, 'both credential flags, as the unit has them');
    t.same(await fallbackFilesBelow(node), [], `nothing of the fallback's left under ${RUN_STATE_DIR}`);
    t.same(await filesBelow(node, RUN_DROP_IN_DIR), [], `nothing left under ${RUN_DROP_IN_DIR}`);
    t.notMatch((await unitProperties(node, ['DropInPaths']))['DropInPaths'], '/run/', 'systemd no longer loads a runtime drop-in');
    const report = await checkJson(node);
    t.match(report, { kubeletWillStart: true, fallback: { active: false } });
    t.match((await must(node, ['cat', TEXTFILE])).stdout, /^nodecheck_fallback_active 0$/m);
    t.equal(await managedFiles(node), managed, 'managed files unchanged');
  });

  t.test('two providers, one plugin missing: kubelet runs with the one that works', async (t) => {
    const node = twoProviders;
    const before = await managedFiles(node);
    await startKubelet(t, node, 'start');
    await runsFirstTime(t, node);
    const argv = (await recordedArgv(node)) ?? [];
    t.equal(flagValue(argv, '--image-credential-provider-bin-dir'), BIN_DIR, 'the plugin directory is unchanged');
    const config = flagValue(argv, '--image-credential-provider-config') ?? '';
    t.match(config, /^\/run\/node-check\//, `the provider config is node-check's filtered copy (${config})`);
    t.equal((await fallbackStatus(node)).filteredConfigPath, config, 'the one fallback status names');
    const filtered = parseYaml((await must(node, ['cat', config])).stdout) as { providers?: { name?: string }[] };
    t.same(filtered.providers?.map((p) => p.name), ['ecr-credential-provider'], 'it lists only the provider whose plugin exists');
    t.equal(await managedFiles(node), before, 'the original config and unit are unchanged');

    const revert = await node.exec(['node-check', 'fallback', 'revert']);
    t.equal(revert.exitCode, 0, 'node-check fallback revert exits 0');
    t.same(await fallbackFilesBelow(node), [], `revert leaves nothing of the fallback's under ${RUN_STATE_DIR}`);
    t.same(await filesBelow(node, RUN_DROP_IN_DIR), [], `nor under ${RUN_DROP_IN_DIR}`);
    t.notMatch((await unitProperties(node, ['DropInPaths']))['DropInPaths'], '/run/', 'and systemd was reloaded without it');
    t.equal((await unitProperties(node, ['ActiveState']))['ActiveState'], 'active', 'the running kubelet is left alone');
    t.equal(await managedFiles(node), before, 'managed files unchanged');
  });
});
