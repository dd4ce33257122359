import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { ledgerEntries } from '../support/api-client';
import { cleanTextInvoice, FaultHarness } from '../support/fault-harness';

const JOBS = 5;

describe('the Temporal server restarted under running jobs', () => {
  let harness: FaultHarness;
  beforeAll(async () => {
    harness = await FaultHarness.create();
  });
  afterAll(async () => {
    await harness?.close();
  });

  test('when the server is killed and restarted on its database, then every job finishes once and is still listed', async () => {
    const batch = `restart-${randomUUID()}`;
    // Slow model calls keep the jobs mid-run while the server goes away.
    const fault = await harness.addSimulatorFault({
      match: { tool: 'record_invoice', textIncludes: batch },
      fault: { kind: 'slow', delayMs: 3_000 },
    });
    await harness.startWorker();
    const handles = await Promise.all(
      Array.from({ length: JOBS }, (_, i) => harness.startJob(cleanTextInvoice(`${batch}-${i}`))),
    );
    for (let i = 0; i < 100; i++) {
      const calls = await harness.simulatorCalls(batch, 'classify_document');
      if (calls.length >= 1) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    await harness.killTemporal();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await harness.restartTemporal();
    await harness.removeSimulatorFault(fault);

    const states = await Promise.all(handles.map((handle) => handle.result()));
    assert.deepEqual(
      states.map((state) => state.status),
      Array(JOBS).fill('posted'),
    );
    for (const handle of handles) assert.equal((await ledgerEntries(handle.workflowId)).length, 1, handle.workflowId);

    const client = await harness.temporalClient();
    const listed: string[] = [];
    for await (const execution of client.workflow.list({ query: `WorkflowType = 'invoiceWorkflow'` })) {
      listed.push(execution.workflowId);
    }
    for (const handle of handles) assert.ok(listed.includes(handle.workflowId), `${handle.workflowId} is listed after the restart`);
  });
});
