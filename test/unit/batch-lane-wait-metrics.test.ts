import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { batchCollectorWorkflowId, messageBatchWorkflowId, modelOfLaneWorkflow } from '../../common/batch-lane';
import { oldestWaitingAges } from '../../lib/metrics-batch-lane-wait';

describe('the batch lane’s oldest waiting entry', () => {
  test('when several lane workflows of a model report, then the oldest wins; one holding nothing reads 0', () => {
    const ages = oldestWaitingAges([{ model: 'a', oldestWaitingSince: 10_000 }, { model: 'a', oldestWaitingSince: 4_000 }, { model: 'a' }, { model: 'b' }], 20_000);
    assert.deepEqual([...ages], [
      ['a', 16],
      ['b', 0],
    ]);
  });

  test('when a reading is from the future (clocks apart), then the age is 0, not negative', () => {
    assert.deepEqual([...oldestWaitingAges([{ model: 'a', oldestWaitingSince: 30_000 }], 20_000)], [['a', 0]]);
  });

  test('when a lane workflow id is read, then its model comes out; other ids are not the lane’s', () => {
    assert.equal(modelOfLaneWorkflow(batchCollectorWorkflowId('claude-haiku-4-5')), 'claude-haiku-4-5');
    assert.equal(modelOfLaneWorkflow(messageBatchWorkflowId('claude-haiku-4-5', 'abc123')), 'claude-haiku-4-5');
    assert.equal(modelOfLaneWorkflow('invoice:demo:abc'), undefined);
  });
});
