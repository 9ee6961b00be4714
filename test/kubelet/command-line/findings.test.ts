import t from 'tap';
import { FLAGS_KINDS } from '../../../src/catalog/kinds/flags.js';
import { commandLineFinding, flagValidationFinding } from '../../../src/kubelet/command-line/findings.js';
import { MODELLED_MINORS } from '../../../src/kubelet/data/minors.js';

t.test('parse failures become findings with kubelet\'s full error text', async (t) => {
  t.match(commandLineFinding(['--pod-infra-container-image=registry.k8s.io/pause:3.10'], 35), {
    findingId: 'kubelet-flag-unknown',
    kubeletError: 'failed to parse kubelet flag: unknown flag: --pod-infra-container-image',
    exitStatus: 1,
    flag: 'pod-infra-container-image',
  });
  t.match(commandLineFinding(['--max-pods=lots'], 33), {
    findingId: 'kubelet-flag-bad-value',
    kubeletError: 'failed to parse kubelet flag: invalid argument "lots" for "--max-pods" flag: strconv.ParseInt: parsing "lots": invalid syntax',
  });
  t.match(commandLineFinding(['--config'], 33), { findingId: 'kubelet-flag-missing-value', kubeletError: 'failed to parse kubelet flag: flag needs an argument: --config' });
  t.match(commandLineFinding(['--fail-swap-on', 'false'], 33), { findingId: 'kubelet-stray-argument', kubeletError: 'unknown command false' });
  t.match(commandLineFinding(['---v=2'], 33), { findingId: 'kubelet-stray-argument', kubeletError: 'failed to parse kubelet flag: bad flag syntax: ---v=2' });
  t.match(commandLineFinding(['--brand-new-flag'], 33), { findingId: 'kubelet-flag-unknown', kubeletError: 'failed to parse kubelet flag: unknown flag: --brand-new-flag' });
  t.match(commandLineFinding(['--max-pods=5'], 33), { ok: true });
});

t.test('a typo\'d flag: kubelet\'s text unchanged, node-check\'s "did you mean" only in the remediation', async (t) => {
  for (const minor of MODELLED_MINORS) {
    const finding = commandLineFinding(['--node-lables=tier=web'], minor);
    t.match(finding, {
      findingId: 'kubelet-flag-unknown',
      kubeletError: 'failed to parse kubelet flag: unknown flag: --node-lables',
      message: `kubelet 1.${minor} will exit at start with: failed to parse kubelet flag: unknown flag: --node-lables`,
      remediation: /^Did you mean --node-labels\? Correct or remove --node-lables on kubelet's command line/,
    }, `1.${minor}`);
  }
  t.match(commandLineFinding(['--max-pod=250'], 30), { remediation: /^Did you mean --max-pods[ ?]/ });
  t.match(commandLineFinding(['--zzzzzzzzzzzz'], 30), { remediation: /^Correct or remove --zzzzzzzzzzzz/ });
});

t.test('validation failures become kubelet-flag-validation findings', async (t) => {
  const parsed = commandLineFinding(['--node-labels=node-role.kubernetes.io/worker'], 33);
  if (!('ok' in parsed) || parsed.ok !== true) throw new Error('parse');
  t.match(flagValidationFinding(parsed.value, 33, 'upstream'), {
    findingId: 'kubelet-flag-validation',
    kubeletError: /^failed to validate kubelet flags: unknown 'kubernetes\.io' or 'k8s\.io' labels specified with --node-labels: \[node-role\.kubernetes\.io\/worker\]\n/,
    exitStatus: 1,
  });
  t.same(flagValidationFinding(parsed.value, 33, 'openshift'), { ok: true, value: null });
});

t.test('every finding id used here is a declared kind with a unique 32-hex messageId', async (t) => {
  const ids = new Set<string>(FLAGS_KINDS.map((k) => k.id));
  for (const id of ['kubelet-flag-unknown', 'kubelet-flag-bad-value', 'kubelet-flag-missing-value', 'kubelet-stray-argument', 'kubelet-flag-validation']) t.ok(ids.has(id), id);
  const messageIds = FLAGS_KINDS.map((k) => k.messageId);
  t.equal(new Set(messageIds).size, messageIds.length);
  for (const m of messageIds) t.match(m, /^[0-9a-f]{32}$/);
});
