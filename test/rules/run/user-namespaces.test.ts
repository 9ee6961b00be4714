// The user namespace manager, last in NewMainKubelet (src/rules/run/user-namespaces.ts); the
// decision's cases are test/kubelet/node-setup/user-namespaces.test.ts, whole nodes
// test/start/user-namespace-manager.test.ts.
import t from 'tap';
import { userNamespacesRule } from '../../../src/rules/run/user-namespaces.js';
import type { NodeModel, PathFact } from '../../../src/model/node.js';
import { executable } from '../../fallback/model.js';
import { refusalOf as failOf, startContext } from '../../helpers/start-context.js';

const gone: PathFact = { exists: false, code: 'ENOENT' };
/** A root without /etc/passwd whose kubelet binary is linked as `linkage` says (static: a build without cgo). */
const withoutPasswd = (linkage: 'static' | 'dynamic' | undefined): Partial<NodeModel> => ({
  files: { '/usr/bin/kubelet': executable(), '/etc/passwd': gone },
  ...(linkage ? { kubeletLinkage: linkage } : {}),
});

t.test('no /etc/passwd: a build without cgo reads it and exits; the releases\' cgo build takes it as no such user', async (t) => {
  const refused = failOf(userNamespacesRule.decide(startContext('--v=2', 35, withoutPasswd('static'))));
  t.equal(refused?.findingId, 'kubelet-user-namespace-manager-failed');
  t.equal(refused?.kubeletError, 'failed to run Kubelet: failed to create kubelet: create user namespace manager: kubelet mappings: open /etc/passwd: no such file or directory');
  t.match(refused?.remediation, 'Restore /etc/passwd');
  t.same(userNamespacesRule.decide(startContext('--v=2', 35, withoutPasswd('dynamic'))), { pass: true });
  t.same(userNamespacesRule.decide(startContext('--v=2', 35, withoutPasswd(undefined))), { pass: true }, 'no binary read: the releases\' cgo build');
  t.same(userNamespacesRule.decide(startContext('--feature-gates=UserNamespacesSupport=false', 35, withoutPasswd('static'))), { pass: true }, 'the gate off');
  t.same(userNamespacesRule.decide(startContext('--v=2', 29, withoutPasswd('static'))), { pass: true }, 'before 1.30 there is no user namespace manager');
});
