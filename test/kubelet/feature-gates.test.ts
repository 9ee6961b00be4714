import t from 'tap';
import { parseFeatureGateFlag } from '../../src/kubelet/feature-gates.js';

t.test('--feature-gates parses like cliflag.MapStringBool', async (t) => {
  t.same(parseFeatureGateFlag(' A=true, B=False ,C=1,D=nope,E'), { gates: { A: true, B: false, C: true }, invalid: ['D=nope', 'E'] });
});
