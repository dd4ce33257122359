import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { nameFromInput, valueAt } from '../../common/job-types/job-name';
import { orderScoreJobType } from '../../common/job-types/order-score/definition';
import { greyOrder } from '../../local/samples/sample-orders';

describe('naming a JSON job and reading its fields by path', () => {
  test('when an order is submitted, then its name is the order’s id, as order.score says (namedBy)', () => {
    assert.equal(nameFromInput(orderScoreJobType.reviewer, greyOrder('ord-42')), 'ord-42');
  });

  test('when the path leads nowhere or to something that is not a name, then there is no name', () => {
    assert.equal(nameFromInput({ namedBy: 'order.missing' }, greyOrder('x')), undefined);
    assert.equal(nameFromInput({ namedBy: 'order' }, greyOrder('x')), undefined, 'an object is not a name');
    assert.equal(nameFromInput({}, greyOrder('x')), undefined, 'a type without namedBy');
    assert.equal(nameFromInput({ namedBy: 'id' }, { id: 'y'.repeat(500) })?.length, 200, 'long names are cut');
  });

  test('when a path names an inherited member, then it is not read: only the input’s own fields are', () => {
    assert.equal(valueAt({}, 'constructor'), undefined);
    assert.equal(valueAt({ a: {} }, 'a.__proto__'), undefined);
    assert.equal(valueAt({ a: { b: false } }, 'a.b'), false);
    assert.equal(valueAt(null, 'a'), undefined);
  });
});
