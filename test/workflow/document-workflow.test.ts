import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { DocumentActivities } from '../../activities/document';
import { MAX_CHUNK_GROUPS } from '../../common/job-types/document/chunk-groups';
import type { DocumentJobInput, DocumentJobSettings, DocumentJobState } from '../../common/job-types/document/document-job';
import { Context } from '@temporalio/activity';
import { retryUpdate, statusQuery } from '../../common/messages';
import { workerTelemetry } from '../../lib/worker-telemetry';
import { ActivityFailureInterceptor } from '../../workers/activity-failure-interceptor';
import type { documentWorkflow } from '../../workflows';
import { chunkUsage, embedUsage, fakeDocumentActivities, reduceUsage } from '../support/fake-document-activities';
import { createTemporalTestEnv } from '../support/temporal-env';
import { testDataConverter } from '../support/test-codec';
import { quietTemporalRuntime, sharedBundle } from '../support/workflow-harness';

describe('documentWorkflow with mocked activities', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    quietTemporalRuntime();
    env = await createTemporalTestEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  async function withWorker<T>(
    activities: DocumentActivities,
    body: (start: (overrides?: Partial<DocumentJobSettings>) => Promise<WorkflowHandle<typeof documentWorkflow>>) => Promise<T>,
    taskQueue = `test-${randomUUID()}`,
  ): Promise<T> {
    const worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await sharedBundle(),
      // The client encrypts payloads like the product's; the worker reads them with the same codec.
      dataConverter: testDataConverter(),
      activities,
      interceptors: { activity: [() => ({ inbound: new ActivityFailureInterceptor() })] },
      sinks: workerTelemetry().sinks,
      // Replay every workflow task from history, so non-determinism shows up here.
      maxCachedWorkflows: 0,
    });
    const start = (overrides: Partial<DocumentJobSettings> = {}) => {
      const jobId = `document:test:${randomUUID()}`;
      const input: DocumentJobInput = {
        jobId,
        tenantId: 'test',
        priority: 'bulk',
        document: {
          bucket: 'slowlane',
          key: 'inputs/test/abc',
          sha256: 'abc',
          contentType: 'application/pdf',
          sizeBytes: 1000,
          fileName: 'report.pdf',
        },
        settings: overrides,
        reviewTimeoutMs: 60 * 60 * 1000,
        deadLetterTimeoutMs: 60 * 60 * 1000,
        submittedAt: new Date().toISOString(),
      };
      return env.client.workflow.start<typeof documentWorkflow>('documentWorkflow', { taskQueue, workflowId: jobId, args: [input] });
    };
    return worker.runUntil(body(start));
  }

  async function historyLength(workflowId: string): Promise<number> {
    const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
    return history.events?.length ?? 0;
  }

  async function activitiesScheduled(workflowId: string): Promise<string[]> {
    const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? []).flatMap((event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
  }

  async function waitForState(
    handle: WorkflowHandle<typeof documentWorkflow>,
    predicate: (state: DocumentJobState) => boolean,
  ): Promise<DocumentJobState> {
    for (let i = 0; i < 300; i++) {
      const state = (await handle.query(statusQuery).catch(() => undefined)) as DocumentJobState | undefined;
      if (state && predicate(state)) return state;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`workflow ${handle.workflowId} never reached the expected state`);
  }

  test('when every chunk succeeds, then each runs once, in child workflows of the group size the worker sets, and the result names both S3 keys', async () => {
    const fake = fakeDocumentActivities({ chunks: 10 });
    const { state, jobId } = await withWorker(fake.activities, async (start) => {
      const handle = await start();
      return { state: (await handle.result()) as DocumentJobState, jobId: handle.workflowId };
    });
    assert.equal(state.status, 'completed');
    assert.deepEqual([...fake.chunkRuns.values()], Array.from({ length: 10 }, () => 1));
    assert.equal(fake.chunkRuns.size, 10);
    // Every chunk step reads its text from the one object the read step wrote.
    assert.deepEqual(new Set(fake.chunkTextsKeys.values()), new Set(['documents/test/fake/chunk-texts.json']));
    assert.equal(fake.chunkTextsKeys.size, 10);
    assert.deepEqual(state.result, {
      pages: 30,
      chunks: 10,
      chunksKey: 'documents/test/fake/chunks.jsonl',
      summaryKey: 'documents/test/fake/summary.json',
      title: 'A fake document',
    });
    assert.deepEqual(
      { pagesRead: state.progress?.pagesRead, done: state.progress?.done, total: state.progress?.total },
      { pagesRead: 30, done: 10, total: 10 },
    );
    // The last progress carries the whole usage, and its seq continues the status events' numbering.
    assert.deepEqual(state.progress?.usage, state.usage);
    const numbers = [...state.events.map((event) => event.seq), state.progress?.seq ?? 0].sort((a, b) => a - b);
    assert.equal(new Set(numbers).size, numbers.length, `seqs repeat: ${numbers.join(',')}`);
    // Each group embeds its chunks in one request, after they are summarised.
    assert.deepEqual([...fake.embedRuns].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0)), [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]);
    assert.equal(state.usage.calls, 10 * chunkUsage.calls + 3 * embedUsage(1).calls + reduceUsage.calls);
    assert.equal(state.usage.inputTokens, 10 * chunkUsage.inputTokens + embedUsage(10).inputTokens + reduceUsage.inputTokens);
    // 10 chunks in groups of 4: children 0, 1 and 2 of round 0, and no fourth; each summarises its chunks in one step.
    for (const group of [0, 1, 2]) {
      assert.deepEqual(await activitiesScheduled(`${jobId}:chunks:0:${group}`), ['processDocumentChunks', 'embedDocumentChunks'], `group ${group}`);
    }
    await assert.rejects(historyLength(`${jobId}:chunks:0:3`));
    const memo = await env.client.workflow.getHandle(jobId).describe();
    assert.deepEqual(memo.memo?.progress, state.progress);
  });

  test('when a document has far more chunks than groups allow, then groups grow and no history passes its bound', async () => {
    const chunks = MAX_CHUNK_GROUPS + 20;
    const fake = fakeDocumentActivities({ chunks });
    const jobId = await withWorker(fake.activities, async (start) => {
      const handle = await start({ chunksPerGroup: 1, parallelGroups: 10, parallelChunks: 2 });
      await handle.result();
      return handle.workflowId;
    });
    assert.equal(fake.chunkRuns.size, chunks);
    // chunksPerGroup 1 would mean 120 children; the cap makes it 60 groups of 2.
    const groupSize = Math.ceil(chunks / MAX_CHUNK_GROUPS);
    const groups = Math.ceil(chunks / groupSize);
    assert.ok(groups <= MAX_CHUNK_GROUPS);
    await assert.rejects(historyLength(`${jobId}:chunks:0:${groups}`));
    const parentEvents = await historyLength(jobId);
    // Per group: child initiated, started, completed and a memo upsert, a workflow task now and then (about 6 seen);
    // plus the fixed steps. Without the cap, 120 groups would take about 700.
    assert.ok(parentEvents <= 7 * groups + 40, `parent history has ${parentEvents} events for ${groups} groups`);
    const childEvents = await historyLength(`${jobId}:chunks:0:0`);
    // Per chunk, and for the group's one embeddings step: activity scheduled, started, completed and a workflow
    // task's three; plus start and end.
    assert.ok(childEvents <= 6 * (groupSize + 1) + 12, `child history has ${childEvents} events for ${groupSize} chunks`);
  }, 300_000);

  test('when a chunk fails for good, then the job parks as a dead letter naming the chunk, and retry reruns only that chunk', async () => {
    const fake = fakeDocumentActivities({ chunks: 9, failing: new Map([[5, 1]]) });
    const state = await withWorker(fake.activities, async (start) => {
      const handle = await start();
      const parked = await waitForState(handle, (s) => s.status === 'dead_letter');
      assert.equal(parked.step, 'processDocumentChunk');
      assert.equal(parked.error?.type, 'ModelRequestInvalidError');
      assert.match(parked.error?.message ?? '', /^chunk 5 \(pages 16–18\): provider answered 400/);
      assert.equal(parked.progress?.done, 8);
      assert.equal(parked.progress?.failed, 1);
      await handle.executeUpdate(retryUpdate, { args: [{ operator: 'olga' }] });
      return (await handle.result()) as DocumentJobState;
    });
    assert.equal(state.status, 'completed');
    assert.equal(state.deadLetter?.retries, 1);
    assert.equal(fake.chunkRuns.get(5), 2);
    for (const [index, runs] of fake.chunkRuns) if (index !== 5) assert.equal(runs, 1, `chunk ${index} ran ${runs} times`);
    assert.equal(state.progress?.done, 9);
  });

  test('when a chunk would pass the tenant’s spend cap, then the fan-out stops, the job waits in budget_wait on processDocumentChunk, and when the window turns only the chunks that did not run are run', async () => {
    // One group and one chunk at a time, so which chunks ran before the refusal is fixed: 0 to 5.
    const fake = fakeDocumentActivities({
      chunks: 12,
      capRefused: { chunks: new Map([[5, 1]]), resumesAt: () => new Date(Date.now() + 3_000) },
    });
    const { waiting, state } = await withWorker(fake.activities, async (start) => {
      const handle = await start({ chunksPerGroup: 4, parallelGroups: 1, parallelChunks: 1 });
      const waiting = await waitForState(handle, (s) => s.status === 'budget_wait');
      const runsWhileWaiting = new Map(fake.chunkRuns);
      return { waiting: { ...waiting, runsWhileWaiting }, state: (await handle.result()) as DocumentJobState };
    });
    assert.equal(waiting.step, 'processDocumentChunk');
    assert.equal(waiting.budgetWait?.window, 'day');
    assert.equal(waiting.error, undefined, 'waiting for the budget is no failure');
    assert.deepEqual([...waiting.runsWhileWaiting.keys()].sort((a, b) => a - b), [0, 1, 2, 3, 4, 5], 'no chunk started after the refusal');
    assert.equal(state.status, 'completed');
    assert.equal(fake.chunkRuns.size, 12);
    assert.equal(fake.chunkRuns.get(5), 2, 'the refused chunk ran again once the window turned');
    for (const [index, runs] of fake.chunkRuns) if (index !== 5) assert.equal(runs, 1, `chunk ${index} ran ${runs} times`);
    assert.equal(state.progress?.done, 12);
    // The refusal split the embeddings: each chunk embedded once, in a request per group that ran.
    assert.deepEqual(fake.embedRuns.flat().sort((a, b) => a - b), Array.from({ length: 12 }, (_, index) => index));
    assert.equal(state.usage.calls, 12 * chunkUsage.calls + fake.embedRuns.length * embedUsage(1).calls + reduceUsage.calls);
    assert.equal(state.budgetWait, undefined);
    assert.equal(state.deadLetter, undefined);
    const steps = state.events.map((event) => `${event.status}${event.step ? `:${event.step}` : ''}`);
    const waited = steps.indexOf('budget_wait:processDocumentChunk');
    assert.deepEqual(steps.slice(waited - 1, waited + 2), ['processing:processDocumentChunk', 'budget_wait:processDocumentChunk', 'processing:processDocumentChunk'], steps.join(', '));
  });

  test('when an operator raises the cap, then a document job waiting in budget_wait runs its waiting chunks before the window turns', async () => {
    const fake = fakeDocumentActivities({
      chunks: 6,
      capRefused: { chunks: new Map([[0, 1]]), resumesAt: () => new Date(Date.now() + 24 * 60 * 60 * 1000) },
    });
    const state = await withWorker(fake.activities, async (start) => {
      const handle = await start({ chunksPerGroup: 3, parallelGroups: 1, parallelChunks: 1 });
      await waitForState(handle, (s) => s.status === 'budget_wait');
      await handle.signal('spendCapRaised', { operator: 'ops-oliver' });
      return (await handle.result()) as DocumentJobState;
    });
    assert.equal(state.status, 'completed');
    assert.equal(fake.chunkRuns.get(0), 2);
    assert.equal(fake.chunkRuns.size, 6);
    assert.equal(state.progress?.done, 6);
  });

  test('when several chunks fail, then the dead letter names them with their pages', async () => {
    const fake = fakeDocumentActivities({ chunks: 8, failing: new Map([[1, 1], [6, 1]]) });
    await withWorker(fake.activities, async (start) => {
      const handle = await start();
      const parked = await waitForState(handle, (s) => s.status === 'dead_letter');
      assert.match(parked.error?.message ?? '', /^2 chunks failed \(chunk 1 \(pages 4–6\), chunk 6 \(pages 19–21\)\)/);
      await handle.terminate('test done');
    });
  });

  test('when the job is cancelled mid-fan-out, then its children stop and it ends cancelled with no summary', async () => {
    let summaries = 0;
    const fake = fakeDocumentActivities({
      chunks: 12,
      // Chunks from 4 on hang like a slow model call, heartbeating, until the cancel reaches them.
      onChunk: async (index) => {
        if (index < 4) return;
        const context = Context.current();
        const beat = setInterval(() => context.heartbeat(), 200);
        try {
          await context.cancelled;
        } finally {
          clearInterval(beat);
        }
      },
    });
    const summarize = fake.activities.summarizeDocument;
    fake.activities.summarizeDocument = async (input) => {
      summaries++;
      return summarize(input);
    };
    const state = await withWorker(fake.activities, async (start) => {
      const handle = await start();
      await waitForState(handle, (s) => (s.progress?.done ?? 0) >= 4 || [...fake.chunkRuns.keys()].some((index) => index >= 4));
      await handle.cancel();
      return (await handle.result()) as DocumentJobState;
    });
    assert.equal(state.status, 'cancelled');
    assert.equal(summaries, 0);
    assert.equal(state.result, undefined);
  });
});
