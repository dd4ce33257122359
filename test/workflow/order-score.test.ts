import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { statusQuery, submitReviewUpdate } from '../../common/messages';
import { fakeActivities, sampleOrder } from '../support/fake-activities';
import { createWorkflowHarness, type WorkflowHarness, waitForStatus } from '../support/workflow-harness';

describe('orderScoreWorkflow with a mocked scoreOrder', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  test('when the score is below the band, then the job completes approved by the model after one call, and its webhook carries the result', async () => {
    const fake = fakeActivities({ scores: [{ score: 0.05, decision: 'approve', reasons: ['returning customer'] }] });
    const state = await harness.withWorker(fake.activities, async (_start, startOrderScore) => {
      const state = await (await startOrderScore(sampleOrder, { callbackUrl: 'https://example.com/hook' })).result();
      for (let i = 0; i < 100 && fake.webhooks.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      return state;
    });
    assert.equal(state.status, 'completed');
    assert.deepEqual(state.result, { score: 0.05, decision: 'approve', reasons: ['returning customer'], decidedBy: 'model' });
    assert.equal(fake.calls.scoreOrder, 1);
    assert.equal(state.usage.calls, 1);
    assert.deepEqual(state.input, sampleOrder);
    const [delivered] = fake.webhooks;
    assert.equal(delivered?.event.type, 'job.completed');
    assert.equal(delivered?.event.data.jobType, 'order.score');
    assert.deepEqual(delivered?.event.data.result, state.result);
  });

  test('when the score is from the band’s top, then the job completes declined without a person', async () => {
    const fake = fakeActivities({ scores: [{ score: 0.85, decision: 'decline', reasons: ['earlier chargebacks'] }] });
    const state = await harness.withWorker(fake.activities, async (_start, startOrderScore) => (await startOrderScore(sampleOrder)).result());
    assert.equal(state.status, 'completed');
    assert.equal((state.result as { decision: string }).decision, 'decline');
    assert.equal(state.review, undefined);
  });

  test('when the score is in the grey zone, then a reviewer decides, approving without fields', async () => {
    const proposal = { score: 0.5, decision: 'review' as const, reasons: ['new account'] };
    const fake = fakeActivities({ scores: [proposal] });
    const state = await harness.withWorker(fake.activities, async (_start, startOrderScore) => {
      const handle = await startOrderScore(sampleOrder);
      await waitForStatus(handle, 'awaiting_review');
      const withFields = handle.executeUpdate(submitReviewUpdate, { args: [{ decision: 'approve', fields: {} as never, reviewer: 'rita' }] });
      const refused = await withFields.then(
        () => assert.fail('an approval with fields was accepted'),
        (error: unknown) => error,
      );
      assert.ok(refused instanceof WorkflowUpdateFailedError && refused.cause instanceof ApplicationFailure);
      assert.equal(refused.cause.type, 'InvalidReviewFields');
      await handle.executeUpdate(submitReviewUpdate, { args: [{ decision: 'approve', reviewer: 'rita' }] });
      return handle.result();
    });
    assert.equal(state.status, 'completed');
    assert.deepEqual(state.proposal, proposal);
    assert.deepEqual(state.result, { score: 0.5, decision: 'approve', reasons: ['new account'], decidedBy: 'reviewer' });
    assert.equal(state.review?.reviewer, 'rita');
  });

  test('when the band is moved by the deployment, then the same score is decided differently', async () => {
    const fake = fakeActivities({ scores: [{ score: 0.5, decision: 'approve', reasons: ['fine'] }] });
    const state = await harness.withWorker(fake.activities, async (_start, startOrderScore) =>
      (await startOrderScore(sampleOrder, { scoreBand: { approveBelow: 0.6, declineFrom: 0.9 } })).result(),
    );
    assert.equal(state.status, 'completed');
    assert.equal((state.result as { decidedBy: string }).decidedBy, 'model');
  });

  test('when the model’s own call disagrees with its score, then a person decides, and a rejection declines the order', async () => {
    const fake = fakeActivities({ scores: [{ score: 0.1, decision: 'decline', reasons: ['odd'] }] });
    const state = await harness.withWorker(fake.activities, async (_start, startOrderScore) => {
      const handle = await startOrderScore(sampleOrder);
      await waitForStatus(handle, 'awaiting_review');
      await handle.executeUpdate(submitReviewUpdate, { args: [{ decision: 'reject', reason: 'stolen card reported', reviewer: 'rita' }] });
      return handle.result();
    });
    assert.equal(state.status, 'completed');
    assert.deepEqual(state.result, { score: 0.1, decision: 'decline', reasons: ['odd', 'stolen card reported'], decidedBy: 'reviewer' });
  });

  test('when the model’s answer fails the schema, then a person decides with the errors shown', async () => {
    const fake = fakeActivities({ scores: ['invalid'] });
    const state = await harness.withWorker(fake.activities, async (_start, startOrderScore) => {
      const handle = await startOrderScore(sampleOrder);
      await waitForStatus(handle, 'awaiting_review');
      const waiting = await handle.query(statusQuery);
      assert.deepEqual(waiting.validationErrors, ['/score must be <= 1']);
      await handle.executeUpdate(submitReviewUpdate, { args: [{ decision: 'approve', reviewer: 'rita' }] });
      return handle.result();
    });
    assert.equal(fake.calls.scoreOrder, 1);
    assert.deepEqual(state.result, { decision: 'approve', reasons: [], decidedBy: 'reviewer' });
  });
});
