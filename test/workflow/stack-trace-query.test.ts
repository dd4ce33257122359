import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { WorkflowHandle } from '@temporalio/client';
import { fakeActivities, sampleOrder } from '../support/fake-activities';
import { createWorkflowHarness, type WorkflowHarness, waitForStatus } from '../support/workflow-harness';

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never: ${what}`);
}

/** What the Web UI's "Stack Trace" tab shows: the SDK's `__stack_trace` query, answered by the workers' bundle. */
async function stackTraceOf(handle: WorkflowHandle): Promise<string> {
  const trace: unknown = await handle.query('__stack_trace');
  assert.equal(typeof trace, 'string');
  return trace as string;
}

/** A frame of the workflow's own source, source-mapped (not the bundle's file), with its function's name. */
function frameIn(file: string): RegExp {
  return new RegExp(`\\n\\s+at \\S+ \\([^)]*/workflows/${file.replace(/[.]/g, '\\.')}:\\d+:\\d+\\)`);
}

describe('the __stack_trace query on a running job', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  test('when an invoice waits on its first step, then its stack trace names a function of the invoice workflow at its source line', async () => {
    const fake = fakeActivities({ hangIn: ['extractText'] });
    const trace = await harness.withWorker(fake.activities, async (start) => {
      const handle = await start();
      await until(() => fake.calls.extractText === 1, 'extractText started');
      const trace = await stackTraceOf(handle);
      await handle.cancel();
      await handle.result();
      return trace;
    });
    assert.match(trace, frameIn('invoice/invoice-workflow.ts'), trace);
  });

  test('when an order waits for a reviewer, then its stack trace names a function of the order.score workflow and of the review', async () => {
    const fake = fakeActivities({ scores: [{ score: 0.5, decision: 'review', reasons: ['new account'] }] });
    const trace = await harness.withWorker(fake.activities, async (_start, startOrderScore) => {
      const handle = await startOrderScore(sampleOrder);
      await waitForStatus(handle, 'awaiting_review');
      const trace = await stackTraceOf(handle);
      await handle.cancel();
      await handle.result();
      return trace;
    });
    assert.match(trace, frameIn('order-score/order-score-workflow.ts'), trace);
    assert.match(trace, /\n\s+at Review\.await \([^)]*\/workflows\/review\.ts:\d+:\d+\)/, trace);
  });
});
