import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { sampleOrder } from '../support/fake-activities';
import { ORDER_LANE_ALLOWANCE, scriptedOrderLane } from '../support/scripted-order-lane';
import { createWorkflowHarness, type WorkflowHarness } from '../support/workflow-harness';

describe('the batch lane’s workflows with scripted activities', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  test('when four bulk jobs enqueue with room for three per batch, then two batches go out and each job gets its own answer; an expired entry goes live', async () => {
    let expired = false;
    const lane = scriptedOrderLane(harness.env.client, {
      maxRequests: 3,
      outcomeOf: () => {
        if (expired) return 'succeeded';
        expired = true;
        return 'expired';
      },
    });
    const states = await harness.withWorker(lane.activities, async (_start, startOrderScore) => {
      const handles = await Promise.all([1, 2, 3, 4].map(() => startOrderScore(sampleOrder, ORDER_LANE_ALLOWANCE)));
      return Promise.all(handles.map((handle) => handle.result()));
    });
    const batches = lane.scripted.batches();
    assert.deepEqual(batches.map((ids) => ids.length).sort(), [1, 3]);
    assert.equal(new Set(batches.flat()).size, 4, 'every entry in exactly one batch');
    for (const state of states) assert.equal(state.status, 'completed');
    assert.deepEqual(lane.scripted.enqueued.map((entry) => entry.step), ['scoreOrder', 'scoreOrder', 'scoreOrder', 'scoreOrder'], 'every order took the lane wait every type takes');
    assert.equal(lane.fromBatch.length, 3);
    assert.equal(lane.calls.scoreOrder, 1, 'the expired entry’s job asked live');
    assert.equal(states.filter((state) => state.usage.byLane?.batch?.calls === 1).length, 3);
  });

  test('when the batch cannot be submitted, then its jobs take the live path and its holds go back', async () => {
    const lane = scriptedOrderLane(harness.env.client, { maxRequests: 10, failSubmit: true });
    const state = await harness.withWorker(lane.activities, async (_start, startOrderScore) => (await startOrderScore(sampleOrder, ORDER_LANE_ALLOWANCE)).result());
    assert.equal(state.status, 'completed');
    assert.equal(lane.calls.scoreOrder, 1);
    assert.deepEqual(lane.fromBatch, []);
    assert.equal(lane.scripted.released.length, 1, 'the entry no batch billed gives its spend hold back');
  });

  test('when a batch stays unreadable past its give-up age, then it is cancelled and its job takes the live path', async () => {
    const lane = scriptedOrderLane(harness.env.client, { maxRequests: 10, giveUpAfterMs: 1_000 });
    lane.scripted.lane.batches.status = () => Promise.reject(new Error('the provider cannot say (injected)'));
    const state = await harness.withWorker(lane.activities, async (_start, startOrderScore) => (await startOrderScore(sampleOrder, ORDER_LANE_ALLOWANCE)).result());
    assert.equal(state.status, 'completed');
    assert.equal(lane.calls.scoreOrder, 1, 'the job asked live');
    assert.equal(lane.scripted.provider.batches[0]?.cancelled, true, 'the given-up batch was cancelled');
  });

  test('when a job is interactive, then it never enqueues', async () => {
    const lane = scriptedOrderLane(harness.env.client, { maxRequests: 10 });
    const state = await harness.withWorker(lane.activities, async (_start, startOrderScore) =>
      (await startOrderScore(sampleOrder, { ...ORDER_LANE_ALLOWANCE, priority: 'interactive' })).result(),
    );
    assert.equal(state.status, 'completed');
    assert.deepEqual(lane.scripted.batches(), []);
    assert.equal(lane.calls.scoreOrder, 1);
  });
});
