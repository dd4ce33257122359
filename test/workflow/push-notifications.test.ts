import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { pushDeliveryId } from '../../common/push';
import { fakeActivities, sampleInvoice, validExtraction } from '../support/fake-activities';
import { createWorkflowHarness, type WorkflowHarness, waitForStatus } from '../support/workflow-harness';

/** Child workflows a job started, by type: what its history recorded. */
async function childrenOf(handle: { fetchHistory(): Promise<{ events?: Array<{ startChildWorkflowExecutionInitiatedEventAttributes?: unknown }> | null }> }) {
  const events = (await handle.fetchHistory()).events ?? [];
  return events.flatMap((event) => {
    const started = event.startChildWorkflowExecutionInitiatedEventAttributes as { workflowType?: { name?: string }; workflowId?: string } | undefined;
    return started ? [{ type: started.workflowType?.name, id: started.workflowId }] : [];
  });
}

describe('Web Push from job workflows', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  test('when a job started with push waits for review and then posts, then each event is pushed to its scopes, numbered as SSE numbers it', async () => {
    const fake = fakeActivities({
      extractions: [validExtraction(sampleInvoice, 0.5)],
      push: { targets: { job: ['psub_job'], review_queue: ['psub_queue', 'psub_gone'] }, gone: ['psub_gone'] },
    });
    const { state, children } = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start({ push: true });
      await waitForStatus(handle, 'awaiting_review');
      await handle.signal('reviewed', { fields: sampleInvoice, reviewer: 'sam' });
      const result = await handle.result();
      // The deliveries are children that outlive the job; wait for the last one.
      const finished = await harness.env.client.workflow.getHandle(pushDeliveryId(result.jobId, result.events.at(-1)?.seq ?? 0)).result();
      assert.deepEqual(finished, { delivered: 1, gone: 0, failed: 0 });
      return { state: result, children: await childrenOf(handle) };
    });
    const review = state.events.find((event) => event.status === 'awaiting_review');
    const posted = state.events.at(-1);
    assert.ok(review && posted?.status === 'posted');
    assert.deepEqual(
      children.filter((child) => child.type === 'deliverPushWorkflow').map((child) => child.id),
      [pushDeliveryId(state.jobId, review.seq), pushDeliveryId(state.jobId, posted.seq)],
    );
    const first = await harness.env.client.workflow.getHandle(pushDeliveryId(state.jobId, review.seq)).result();
    assert.deepEqual(first, { delivered: 2, gone: 1, failed: 0 });
    // Awaiting review reaches the job's subscription and the queue's; the end reaches the job's only.
    assert.deepEqual(
      fake.pushes.map((push) => [push.target.id, push.message.id, push.message.data.status]).sort(),
      [
        ['psub_gone', review.seq, 'awaiting_review'],
        ['psub_job', review.seq, 'awaiting_review'],
        ['psub_job', posted.seq, 'posted'],
        ['psub_queue', review.seq, 'awaiting_review'],
      ].sort(),
    );
    assert.ok(fake.pushes.every((push) => !('result' in push.message.data)), 'a push never carries the result');
  });

  test('when a job started without push ends, then no push delivery is started', async () => {
    const fake = fakeActivities({ push: { targets: { job: ['psub_job'] } } });
    const children = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await handle.result();
      return childrenOf(handle);
    });
    assert.deepEqual(children, []);
    assert.deepEqual(fake.pushes, []);
  });
});
