import t from 'tap';
import { effectiveFeatureGates, featureGatesOf, parseFeatureGateFlag, TOKEN_GATE } from '../../src/kubelet/feature-gates.js';
import { requireTraits } from '../../src/kubelet/version.js';

t.test('defaults: the token gate is absent before 1.33, off in 1.33, on from 1.34', async (t) => {
  t.same(effectiveFeatureGates(requireTraits(32), { configDropIns: [], flagValues: [] }), {});
  t.equal(effectiveFeatureGates(requireTraits(33), { configDropIns: [], flagValues: [] })[TOKEN_GATE], false);
  t.equal(effectiveFeatureGates(requireTraits(34), { configDropIns: [], flagValues: [] })[TOKEN_GATE], true);
});

t.test('precedence: config file, then drop-ins in order, then the flag per key', async (t) => {
  const gates = effectiveFeatureGates(requireTraits(33), {
    configFile: { [TOKEN_GATE]: true, A: true, B: true },
    configDropIns: [{ A: false }, { A: true, C: false }],
    flagValues: ['B=false', `${TOKEN_GATE}=false`, 'D=true'],
  });
  t.same(gates, { [TOKEN_GATE]: false, A: true, B: false, C: false, D: true });
});

t.test('--feature-gates parses like cliflag.MapStringBool', async (t) => {
  t.same(parseFeatureGateFlag(' A=true, B=False ,C=1,D=nope,E'), { gates: { A: true, B: false, C: true }, invalid: ['D=nope', 'E'] });
});

t.test('featureGates of a KubeletConfiguration ignores non-booleans', async (t) => {
  t.same(featureGatesOf({ kind: 'KubeletConfiguration', featureGates: { A: true, B: 'yes' } }), { A: true });
  t.equal(featureGatesOf({ kind: 'KubeletConfiguration' }), undefined);
  t.equal(featureGatesOf('text'), undefined);
});
