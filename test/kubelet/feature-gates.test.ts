import t from 'tap';
import { featureGatesOf, parseFeatureGateFlag } from '../../src/kubelet/feature-gates.js';

t.test('--feature-gates parses like cliflag.MapStringBool', async (t) => {
  t.same(parseFeatureGateFlag(' A=true, B=False ,C=1,D=nope,E'), { gates: { A: true, B: false, C: true }, invalid: ['D=nope', 'E'] });
});

t.test('featureGates of a KubeletConfiguration ignores non-booleans', async (t) => {
  t.same(featureGatesOf({ kind: 'KubeletConfiguration', featureGates: { A: true, B: 'yes' } }), { A: true });
  t.equal(featureGatesOf({ kind: 'KubeletConfiguration' }), undefined);
  t.equal(featureGatesOf('text'), undefined);
});
