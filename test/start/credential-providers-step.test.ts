// The credential provider registration step (NewMainKubelet): its first failure is the start failure,
// logged as "Failed to register CRI auth plugins" err="…", with the provider and the path.
import t from 'tap';
import type { PathFact } from '../../src/model/node.js';
import { StartContext } from '../../src/start/start-context.js';
import { requireTraits } from '../../src/kubelet/version.js';
import { credentialProvidersStep } from '../../src/start/steps/credential-providers.js';
import { ACR_CONFIG, PLUGIN_DIR, dir, executable, file, modelOf } from '../fallback/model.js';

const CONFIG = '/etc/kubernetes/credential-providers/acr-credential-provider.yaml';
const PLUGIN = `${PLUGIN_DIR}/acr-credential-provider`;

function run(files: Record<string, PathFact>, minor = 30, flags = `--image-credential-provider-bin-dir=${PLUGIN_DIR} --image-credential-provider-config=${CONFIG}`) {
  const model = modelOf({ execStart: `/usr/bin/kubelet ${flags}`, files: { '/usr/bin/kubelet': executable(), ...files } });
  return credentialProvidersStep.run(new StartContext(model, minor, requireTraits(minor), 'upstream'));
}

t.test('no credential flags: nothing registers, the step passes', async (t) => {
  t.same(run({}, 30, '--v=2'), { pass: true });
});

t.test('a missing plugin: kubelet\'s text per minor, the CRI auth plugins log line, provider and path', async (t) => {
  const newer = run({ [CONFIG]: file(ACR_CONFIG), [PLUGIN_DIR]: dir([]) }, 30);
  t.ok('fail' in newer);
  if ('fail' in newer) {
    t.equal(newer.fail.findingId, 'plugin-binary-missing');
    t.equal(newer.fail.kubeletError, 'plugin binary executable  did not exist', '1.30+ prints an empty path');
    t.equal(newer.fail.logLine, '"Failed to register CRI auth plugins" err="plugin binary executable  did not exist"');
    t.equal(newer.fail.exitStatus, 1);
    t.equal(newer.fail.provider, 'acr-credential-provider');
    t.equal(newer.fail.path, PLUGIN);
  }
  const older = run({ [CONFIG]: file(ACR_CONFIG), [PLUGIN_DIR]: dir([]) }, 28);
  t.equal('fail' in older && older.fail.kubeletError, `plugin binary executable ${PLUGIN} did not exist`);
});

t.test('a missing plugin directory and an unreadable config are fatal with kubelet\'s texts', async (t) => {
  const noDir = run({ [CONFIG]: file(ACR_CONFIG) });
  t.equal('fail' in noDir && noDir.fail.kubeletError, `plugin binary directory ${PLUGIN_DIR} did not exist`);
  t.equal('fail' in noDir && noDir.fail.findingId, 'bin-dir-missing');
  const unreadable = run({ [CONFIG]: { exists: true, type: 'file', mode: 0o644, uid: 0, gid: 0, content: { ok: false, code: 'EIO' } }, [PLUGIN_DIR]: dir([]) });
  t.equal('fail' in unreadable && unreadable.fail.kubeletError, `unable to read external registry credential provider configuration from "${CONFIG}": open ${CONFIG}: input/output error`);
  t.equal('fail' in unreadable && unreadable.fail.logLine, `"Failed to register CRI auth plugins" err="unable to read external registry credential provider configuration from \\"${CONFIG}\\": open ${CONFIG}: input/output error"`);
});

t.test('an installed executable plugin: registration passes', async (t) => {
  t.same(run({ [CONFIG]: file(ACR_CONFIG), [PLUGIN_DIR]: dir(['acr-credential-provider']), [PLUGIN]: executable() }), { pass: true });
});

t.test('what node-check cannot evaluate is "cannot tell", naming the file', async (t) => {
  const big = run({ [CONFIG]: { exists: true, type: 'file', mode: 0o644, uid: 0, gid: 0, content: { ok: false, code: 'EFBIG' } }, [PLUGIN_DIR]: dir([]) });
  t.same(big, { undecidable: `node-check cannot evaluate kubelet's credential provider setup: ${CONFIG} is too large to evaluate`, path: CONFIG });
  const denied = run({ [CONFIG]: { exists: false, code: 'EACCES' }, [PLUGIN_DIR]: dir([]) });
  t.ok('undecidable' in denied, 'node-check could not read it (not root); kubelet, as root, can');
  t.equal('undecidable' in denied && denied.path, CONFIG);
});
