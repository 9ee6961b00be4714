// Whose kubelet runs, from the node's evidence (src/kubelet/flavor.ts).
import t from 'tap';
import { decideFlavor } from '../../src/kubelet/flavor.js';

const none = { wrapper: [], osRelease: {}, openshiftMarkers: [] };

t.test('an OpenShift 4.6-4.11 RHEL worker: hyperkube and the os_id label MCO passes, nothing else', async (t) => {
  // templates/worker/01-worker-kubelet/_base/units/kubelet.service.yaml @release-4.10 of openshift/machine-config-operator
  const decision = decideFlavor({ ...none, wrapper: ['/usr/bin/hyperkube'], osRelease: { ID: 'rhel', VERSION_ID: '8.4' }, nodeLabels: ['node-role.kubernetes.io/worker,node.openshift.io/os_id=rhel'] });
  t.equal(decision.flavor, 'openshift');
  t.equal(decision.source, 'node');
  t.match(decision.evidence.join(' '), /--node-labels sets node\.openshift\.io\/os_id .*\/usr\/bin\/hyperkube kubelet/);
});

t.test('the label decides without hyperkube too (4.12+ RHEL workers pass it through kubenswrapper)', async (t) => {
  const decision = decideFlavor({ ...none, nodeLabels: ['node-role.kubernetes.io/master', 'node.openshift.io/os_id=rhcos'] });
  t.equal(decision.flavor, 'openshift');
  t.notMatch(decision.evidence.join(' '), /hyperkube/);
});

t.test('hyperkube alone, or a label that only looks alike, is upstream', async (t) => {
  t.equal(decideFlavor({ ...none, wrapper: ['/usr/local/bin/hyperkube'] }).flavor, 'upstream', 'other distributions ran their own hyperkube');
  t.equal(decideFlavor({ ...none, nodeLabels: ['tier=web,node.openshift.io/os_id_other=x'] }).flavor, 'upstream');
  t.equal(decideFlavor({ ...none, nodeLabels: ['node.openshift.io/os_id=rhel'] }, 'upstream').flavor, 'upstream', '--kubelet-flavor still overrides');
});
