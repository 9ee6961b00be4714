// Finding ids are typed from the catalog (FindingId): `npx tsc -p . --noEmit`, part of `npm test`,
// fails on an id the catalog does not document, so no finding can miss its journal MESSAGE_ID,
// its metric label or its `node-check explain` entry.
import t from 'tap';
import { allFindingKinds, findingKind, type FindingId } from '../../src/catalog/findings.js';
import type { Finding } from '../../src/model/findings.js';

// @ts-expect-error an id missing from the catalog is not a FindingId
const undocumented: FindingId = 'no-such-finding';
// @ts-expect-error nor can a finding carry one
const finding: Finding = { id: 'no-such-finding', severity: 'error', message: 'm', remediation: 'r' };

t.test('every FindingId has a kind at run time too', async (t) => {
  const documented: FindingId = 'plugin-binary-missing';
  t.equal(findingKind(documented)?.id, documented);
  t.equal(findingKind(undocumented), undefined, 'what the type refused has no kind');
  t.equal(findingKind(finding.id), undefined);
  t.equal(new Set(allFindingKinds().map((k) => k.id)).size, allFindingKinds().length, 'ids are unique');
});
