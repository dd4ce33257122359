import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { WorkflowHandle } from '@temporalio/client';
import { LedgerRejectedError } from '../../common/errors';
import { retryUpdate } from '../../common/messages';
import { fakeActivities, sampleInvoice, sampleOrder, validExtraction } from '../support/fake-activities';
import { createWorkflowHarness, type WorkflowHarness, waitForStatus } from '../support/workflow-harness';

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never: ${what}`);
}

async function statusOf(handle: WorkflowHandle): Promise<string> {
  return ((await handle.query('status')) as { status: string }).status;
}

describe('cancelling a job of any type', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  test('when an order.score job is cancelled mid-call, then the activity learns it by heartbeat and stops, and the job ends cancelled with a job.cancelled webhook', async () => {
    const fake = fakeActivities({ hangIn: ['scoreOrder'] });
    const state = await harness.withWorker(fake.activities, async (_start, startOrderScore) => {
      const handle = await startOrderScore(sampleOrder, { callbackUrl: 'https://example.com/hook' });
      await until(() => fake.calls.scoreOrder === 1, 'scoreOrder started');
      await handle.cancel();
      const state = await handle.result();
      await until(() => fake.webhooks.length > 0, 'the job.cancelled webhook');
      return state;
    });
    assert.equal(state.status, 'cancelled');
    assert.equal(state.step, 'scoreOrder');
    assert.equal(fake.calls.cancelled, 1, 'the running activity saw the cancel');
    assert.equal(state.result, undefined);
    assert.deepEqual(
      fake.webhooks.map((delivery) => delivery.event.type),
      ['job.cancelled'],
    );
    assert.equal(state.events.at(-1)?.status, 'cancelled');
  });

  test('when an invoice job is cancelled while its text is extracted, then no later step runs', async () => {
    const fake = fakeActivities({ hangIn: ['extractText'] });
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await until(() => fake.calls.extractText === 1, 'extractText started');
      await handle.cancel();
      return handle.result();
    });
    assert.equal(state.status, 'cancelled');
    assert.equal(fake.calls.cancelled, 1);
    assert.equal(fake.calls.classifyDocument, 0);
    assert.equal(fake.calls.postInvoiceToLedger, 0);
  });

  test('when an invoice job is cancelled while it awaits review, then nothing is posted and the review is closed', async () => {
    const fake = fakeActivities({ extractions: [validExtraction(sampleInvoice, 0.5)] });
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      await handle.cancel();
      const state = await handle.result();
      assert.equal(await statusOf(handle), 'cancelled', 'the status query of the closed job');
      return state;
    });
    assert.equal(state.status, 'cancelled');
    assert.equal(state.step, 'review');
    assert.deepEqual(fake.posted, []);
  });

  test('when an invoice job is cancelled while parked at a failed ledger post, then it ends cancelled and nothing is posted after', async () => {
    const fake = fakeActivities({ ledgerFailures: [new LedgerRejectedError('ledger answered 422')] });
    const state = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'dead_letter');
      await handle.cancel();
      const state = await handle.result();
      // The park is over: an operator's retry is refused instead of posting after the cancel.
      const retried = await handle.executeUpdate(retryUpdate, { args: [{ operator: 'ops' }] }).then(() => 'accepted', () => 'refused');
      assert.equal(retried, 'refused');
      return state;
    });
    assert.equal(state.status, 'cancelled');
    assert.equal(state.step, 'postInvoiceToLedger');
    assert.equal(fake.calls.postInvoiceToLedger, 1);
    assert.deepEqual(fake.posted, []);
  });

  test('when a job already finished, then a cancel changes nothing', async () => {
    const fake = fakeActivities({ scores: [{ score: 0.05, decision: 'approve', reasons: ['fine'] }] });
    const state = await harness.withWorker(fake.activities, async (_start, startOrderScore) => {
      const handle = await startOrderScore(sampleOrder);
      await handle.result();
      await handle.cancel().catch(() => undefined);
      return handle.result();
    });
    assert.equal(state.status, 'completed');
  });
});
