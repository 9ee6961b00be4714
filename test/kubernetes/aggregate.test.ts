import t from 'tap';
import { aggregateError } from '../../src/kubernetes/aggregate.js';

t.test('utilerrors.NewAggregate(errs).Error()', async (t) => {
  t.equal(aggregateError([]), '');
  t.equal(aggregateError(['a']), 'a');
  t.equal(aggregateError(['a', 'b']), '[a, b]');
  t.equal(aggregateError(['a', 'a']), 'a');
  t.equal(aggregateError(['a', 'b', 'a']), '[a, b]');
});
