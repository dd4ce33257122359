import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { Client, type WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { randomUUID } from 'node:crypto';
import type Long from 'long';
import { reviewedSignal, submitReviewUpdate } from '../../common/messages';
import { JobStatusKey } from '../../common/search-attributes';
import { dataConverterFor } from '../../lib/payload-codec/data-converter';
import { fakeActivities, sampleInvoice, validExtraction } from '../support/fake-activities';
import { testCodecSettings } from '../support/test-codec';
import { localTestConfig } from '../support/test-credentials';
import { createWorkflowHarness, type WorkflowHarness, waitForStatus } from '../support/workflow-harness';

const EventType = temporal.api.enums.v1.EventType;

/** The messages of the workflow task failures after the first signal, once there is one (read through the codec). */
async function taskFailuresAfterSignal(handle: WorkflowHandle, attempts = 150): Promise<string[]> {
  const codec = dataConverterFor(testCodecSettings()).payloadCodecs?.[0];
  assert.ok(codec);
  for (let i = 0; i < attempts; i++) {
    const events = (await handle.fetchHistory()).events ?? [];
    const signalled = events.findIndex((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED);
    const failures = events.slice(signalled + 1).flatMap((event) => event.workflowTaskFailedEventAttributes?.failure ?? []);
    if (signalled >= 0 && failures.length > 0) {
      // The failure converter moved the message into an encrypted attribute (common/failure-converter.ts).
      const encoded = failures.flatMap((failure) => (failure.encodedAttributes ? [failure.encodedAttributes] : []));
      const decoded = await codec.decode(encoded);
      return decoded.map((payload) => (JSON.parse(Buffer.from(payload.data ?? []).toString()) as { message: string }).message);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no workflow task of ${handle.workflowId} failed after the signal`);
}

/** The last completed workflow task before the first signal: where an operator resets the job to. */
async function lastTaskBeforeSignal(handle: WorkflowHandle): Promise<Long> {
  const events = (await handle.fetchHistory()).events ?? [];
  const signalled = events.findIndex((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED);
  const completed = events.slice(0, signalled).filter((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
  const last = completed.at(-1)?.eventId;
  assert.ok(last);
  return last as Long;
}

describe('a plaintext signal to a worker that refuses plaintext (the production default)', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  test('when anyone with namespace access sends `reviewed` without the codec, then nothing is posted; after a reset that drops it, a real review posts', async () => {
    const { payloadCodecKeys, payloadCodecKeyId } = testCodecSettings();
    // The product's settings with the test keys and nothing else said about plaintext: the default is to refuse it.
    const strict = localTestConfig({
      PAYLOAD_CODEC_KEYS: JSON.stringify(Object.fromEntries(Object.entries(payloadCodecKeys ?? {}).map(([id, key]) => [id, key.reveal()]))),
      PAYLOAD_CODEC_KEY_ID: payloadCodecKeyId,
    }).temporal;
    assert.equal(strict.payloadCodecAcceptPlaintext, false);

    const fake = fakeActivities({ extractions: [validExtraction(sampleInvoice, 0.5)] });
    const forged = { ...sampleInvoice, totalAmount: 999_999, iban: 'XX00 MALLORY' };
    await harness.withWorker(
      fake.activities,
      async (start) => {
        const handle = await start();
        await waitForStatus(handle, 'awaiting_review');

        // A client of the namespace without our codec: its payload reaches the history as plaintext JSON.
        const plain = new Client({ connection: harness.env.connection, namespace: harness.env.namespace ?? 'default' });
        await plain.workflow.getHandle(handle.workflowId).signal(reviewedSignal, { fields: forged, reviewer: 'mallory' });

        const failures = await taskFailuresAfterSignal(handle);
        assert.match(failures[0] ?? '', /not encrypted \(encoding json\/plain\) and is refused/);
        const description = await handle.describe();
        assert.equal(description.status.name, 'RUNNING');
        assert.equal(description.typedSearchAttributes.get(JobStatusKey), 'awaiting_review');
        // Every task replays the forged signal and fails again, so a genuine decision waits behind it too.
        await handle.signal(reviewedSignal, { fields: sampleInvoice, reviewer: 'rita' });
        await new Promise((resolve) => setTimeout(resolve, 3000));
        assert.equal(fake.calls.postInvoiceToLedger, 0, 'nothing was posted');
        assert.deepEqual(fake.posted, []);

        // The operator's way out (docs/security.md): reset to the last completed task, dropping the signals after it.

        const reset = await harness.env.client.workflowService.resetWorkflowExecution({
          namespace: harness.env.namespace ?? 'default',
          workflowExecution: { workflowId: handle.workflowId },
          reason: 'drop a plaintext signal',
          workflowTaskFinishEventId: await lastTaskBeforeSignal(handle),
          requestId: randomUUID(),
          resetReapplyExcludeTypes: [temporal.api.enums.v1.ResetReapplyExcludeType.RESET_REAPPLY_EXCLUDE_TYPE_SIGNAL],
        });
        const afterReset = harness.env.client.workflow.getHandle(handle.workflowId, reset.runId ?? undefined);
        await waitForStatus(afterReset, 'awaiting_review');
        const outcome = await afterReset.executeUpdate(submitReviewUpdate, { args: [{ decision: 'approve', fields: sampleInvoice, reviewer: 'rita' }] });
        assert.equal(outcome.accepted, true);
        const state = await afterReset.result();
        assert.equal(state.status, 'posted');
        assert.deepEqual(fake.posted, [sampleInvoice]);
      },
      { dataConverter: dataConverterFor(strict) },
    );
  });
});
