import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { ledgerEntries } from '../support/api-client';
import { cleanTextInvoice, FaultHarness } from '../support/fault-harness';

describe('a worker killed in the middle of a model call', () => {
  let harness: FaultHarness;
  beforeAll(async () => {
    harness = await FaultHarness.create();
  });
  afterAll(async () => {
    await harness?.close();
  });

  test('when the worker dies mid-step, then a fresh worker retries the step and the job posts exactly once', async () => {
    const marker = `crash-${randomUUID()}`;
    // The first extraction call hangs long enough for us to kill the worker inside it.
    await harness.addSimulatorFault({
      match: { tool: 'record_invoice', textIncludes: marker },
      fault: { kind: 'slow', delayMs: 8_000 },
      times: 1,
    });
    const doomed = await harness.startWorker();
    const handle = await harness.startJob(cleanTextInvoice(marker));

    let inFlight = false;
    for (let i = 0; i < 200 && !inFlight; i++) {
      const { raw } = await handle.describe();
      inFlight = (raw.pendingActivities ?? []).some(
        (activity) => activity.activityType?.name === 'extractInvoiceFields' && activity.lastStartedTime,
      );
      if (!inFlight) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(inFlight, 'the extraction step should be running on the first worker');
    await doomed.kill();
    harness.supervisor.forget(doomed);

    await harness.startWorker();
    const state = await handle.result();
    assert.equal(state.status, 'posted');
    assert.equal(state.attempts.extractInvoiceFields, 2, 'the killed attempt was detected (heartbeat timeout) and retried once');
    assert.equal((await ledgerEntries(handle.workflowId)).length, 1);
    const calls = await harness.simulatorCalls(marker, 'record_invoice');
    assert.ok(calls.length <= 2, `at most one model call per attempt, saw ${calls.length}`);
  });
});
