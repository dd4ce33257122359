import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { WorkflowHandle } from '@temporalio/client';
import type { CallJobInput, CallJobState } from '../../common/job-types/call/call-job';
import { retryUpdate, statusQuery, submitReviewUpdate } from '../../common/messages';
import type { callTranscribeWorkflow } from '../../workflows';
import { CHUNK_SECONDS, chunkUsage, fakeCallActivities, REVIEW_CONFIDENCE, sampleCallSummary, summaryUsage } from '../support/fake-call-activities';
import { createWorkflowHarness, waitForStatus, type WorkflowHarness } from '../support/workflow-harness';

describe('callTranscribeWorkflow with mocked activities', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  const startCall = (taskQueue: string): Promise<WorkflowHandle<typeof callTranscribeWorkflow>> => {
    const jobId = `call.transcribe:test:${randomUUID()}`;
    const input: CallJobInput = {
      jobId,
      tenantId: 'test',
      priority: 'bulk',
      document: { bucket: 'slowlane', key: 'inputs/test/call', sha256: 'call', contentType: 'audio/wav', sizeBytes: 1000, fileName: 'call.wav' },
      reviewTimeoutMs: 60 * 60 * 1000,
      deadLetterTimeoutMs: 60 * 60 * 1000,
      submittedAt: new Date().toISOString(),
    };
    return harness.env.client.workflow.start('callTranscribeWorkflow', { taskQueue, workflowId: jobId, args: [input] });
  };

  test('when every chunk is transcribed, then the job completes with the summary, minutes of progress, and every call in its usage', async () => {
    const fake = fakeCallActivities({ chunks: 5 });
    const state = await harness.withWorker(fake.activities, async (_start, _score, taskQueue) => (await startCall(taskQueue)).result());
    assert.equal(state.status, 'completed');
    const result = (state as CallJobState).result;
    assert.deepEqual(result?.summary, sampleCallSummary);
    assert.equal(result?.summarizedBy, 'model');
    assert.equal(result?.chunks, 5);
    assert.deepEqual([state.progress?.unit, state.progress?.done, state.progress?.total], ['minutes', 5, (5 * CHUNK_SECONDS) / 60]);
    assert.equal(state.usage.calls, 5 * chunkUsage.calls + summaryUsage.calls);
    assert.ok(Math.abs(state.usage.costUsd - (5 * chunkUsage.costUsd + summaryUsage.costUsd)) < 1e-9);
    assert.deepEqual([...fake.chunkRuns.values()], [1, 1, 1, 1, 1]);
  }, 60_000);

  test('when a chunk fails for good, then the job parks naming it, and a retry transcribes only that chunk', async () => {
    const fake = fakeCallActivities({ chunks: 4, failing: new Map([[2, 1]]) });
    const state = await harness.withWorker(fake.activities, async (_start, _score, taskQueue) => {
      const handle = await startCall(taskQueue);
      await waitForStatus(handle, 'dead_letter');
      const parked = await handle.query(statusQuery);
      assert.equal(parked.step, 'transcribeCallChunk');
      assert.match(parked.error?.message ?? '', /^chunk 3 of 4: /);
      await handle.executeUpdate(retryUpdate, { args: [{ operator: 'ops', reason: 'provider fixed' }] });
      return handle.result();
    });
    assert.equal(state.status, 'completed');
    assert.deepEqual(
      [...fake.chunkRuns.entries()].sort(([a], [b]) => a - b),
      [
        [0, 1],
        [1, 1],
        [2, 2],
        [3, 1],
      ],
    );
  }, 60_000);

  test('when the split says the provider calls back, then each chunk is awaited then stored, once, and billed once', async () => {
    const fake = fakeCallActivities({ chunks: 3, byCallback: true });
    const { state, history } = await harness.withWorker(fake.activities, async (_start, _score, taskQueue) => {
      const handle = await startCall(taskQueue);
      const state = await handle.result();
      return { state, history: await handle.fetchHistory() };
    });
    assert.equal(state.status, 'completed');
    assert.equal((state as CallJobState).result?.chunks, 3);
    assert.deepEqual([...fake.awaited.values()], [1, 1, 1]);
    assert.deepEqual([...fake.chunkRuns.values()], [1, 1, 1]);
    assert.equal(state.usage.calls, 3 * chunkUsage.calls + summaryUsage.calls);
    const scheduled = (history.events ?? []).flatMap((event) => {
      const name = event.activityTaskScheduledEventAttributes?.activityType?.name;
      return name ? [name] : [];
    });
    assert.deepEqual(scheduled.filter((name) => name.includes('Chunk')).sort(), [
      ...Array(3).fill('awaitCallChunkTranscript'),
      ...Array(3).fill('storeCallChunkTranscript'),
    ]);
  }, 60_000);

  test('when the summary fails its schema, then the job waits for a reviewer, whose edited summary becomes the result', async () => {
    const fake = fakeCallActivities({ chunks: 2, invalidSummary: true });
    const edited = { ...sampleCallSummary, outcome: 'resolved' as const };
    const state = await harness.withWorker(fake.activities, async (_start, _score, taskQueue) => {
      const handle = await startCall(taskQueue);
      await waitForStatus(handle, 'awaiting_review');
      const waiting = await handle.query(statusQuery);
      assert.deepEqual(waiting.validationErrors, ['/summary must NOT have fewer than 1 characters']);
      await handle.executeUpdate(submitReviewUpdate, { args: [{ decision: 'approve', fields: edited, reviewer: 'rita' }] });
      return handle.result();
    });
    assert.equal(state.status, 'completed');
    assert.deepEqual((state as CallJobState).result?.summary, edited);
    assert.equal((state as CallJobState).result?.summarizedBy, 'reviewer');
  }, 60_000);

  test('when the call was heard with low confidence, then a valid summary still waits for a reviewer, who sees why and the transcript', async () => {
    const fake = fakeCallActivities({ chunks: 2, confidence: 0.41 });
    const state = await harness.withWorker(fake.activities, async (_start, _score, taskQueue) => {
      const handle = await startCall(taskQueue);
      await waitForStatus(handle, 'awaiting_review');
      const waiting = (await handle.query(statusQuery)) as CallJobState;
      assert.equal(waiting.reviewReason, `transcription confidence 0.41 below ${REVIEW_CONFIDENCE.toFixed(2)}`);
      assert.deepEqual(waiting.proposal, sampleCallSummary);
      assert.equal(waiting.validationErrors, undefined);
      assert.deepEqual(waiting.transcript, { key: 'calls/test/fake/transcript.json', confidence: 0.41, lowConfidenceSegments: 2, reviewConfidence: REVIEW_CONFIDENCE });
      await handle.executeUpdate(submitReviewUpdate, { args: [{ decision: 'approve', fields: sampleCallSummary, reviewer: 'rita' }] });
      return handle.result();
    });
    assert.equal(state.status, 'completed');
    assert.equal((state as CallJobState).result?.summarizedBy, 'reviewer');
  }, 60_000);

  test('when the call was heard at the review confidence or above, or carries none, then a valid summary completes it', async () => {
    for (const confidence of [REVIEW_CONFIDENCE, undefined]) {
      const fake = fakeCallActivities({ chunks: 1, ...(confidence !== undefined ? { confidence } : {}) });
      const state = await harness.withWorker(fake.activities, async (_start, _score, taskQueue) => (await startCall(taskQueue)).result());
      assert.equal(state.status, 'completed', String(confidence));
      assert.equal(state.reviewReason, undefined);
    }
  }, 60_000);
});
