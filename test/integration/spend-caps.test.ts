import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { JobState } from '../../common/job';
import { statusQuery } from '../../common/messages';
import type { CallJobState } from '../../common/job-types/call/call-job';
import type { DocumentJobState } from '../../common/job-types/document/document-job';
import { RedisSpendStore } from '../../gateway/spend/redis-spend-store';
import { longDocumentPage } from '../../local/samples/long-document';
import { SAMPLE_CALL } from '../../local/samples/sample-call';
import { speakCall } from '../../local/samples/spoken-call';
import { startLocalRedis, type LocalRedis } from '../../local/stack/redis-server';
import type { ManagedProcess } from '../../local/stack/supervisor';
import { wakeBudgetWaits } from '../../ops/spend-cap-raised';
import { cleanTextInvoice, FaultHarness } from '../support/fault-harness';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The real worker process, simulator and Redis: a tenant's cap stops its job before the provider, the job waits in
 * budget_wait, and after the cap is raised (workers restarted with the new setting) the operator's wake finishes it.
 */
describe('a tenant whose daily spend cap is reached, on the real stack', () => {
  let harness: FaultHarness;
  let redis: LocalRedis;
  const prefix = `spend-it-${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    redis = await startLocalRedis();
    harness = await FaultHarness.create();
  });
  afterAll(async () => {
    await harness?.close();
    await redis?.stop();
  });

  const workerWithCap = (dailyUsd: number, spendPrefix = prefix) =>
    harness.startWorker({ REDIS_URL: redis.url, SPEND_REDIS_PREFIX: spendPrefix, TENANT_SPEND_CAPS: JSON.stringify({ demo: { dailyUsd } }) });

  /** Polls the job's status query until it is `status`, or gives up after a minute. */
  async function stateWhen<S extends JobState>(handle: { query: (query: typeof statusQuery) => Promise<JobState> }, status: string): Promise<S | undefined> {
    let state: JobState | undefined;
    for (let i = 0; i < 600 && state?.status !== status; i++) {
      state = await handle.query(statusQuery).catch(() => undefined);
      if (state?.status !== status) await pause(100);
    }
    return state as S | undefined;
  }

  /** The worker gone from the queue, so the next test's worker is the only one polling, with its own cap. */
  async function stopWorker(worker: ManagedProcess): Promise<void> {
    await worker.stop();
    harness.supervisor.forget(worker);
  }

  /** The cap raised as an operator does it: the worker restarted with the new setting, then the waiting job woken. */
  async function raiseCapAndWake(capped: ManagedProcess, spendPrefix = prefix): Promise<ManagedProcess> {
    await stopWorker(capped);
    const raised = await workerWithCap(100, spendPrefix);
    const client = await harness.temporalClient();
    let woken = 0;
    for (let i = 0; i < 100 && woken === 0; i++) {
      woken = (await wakeBudgetWaits(client, 'demo', 'ops-oliver')).woken;
      if (woken === 0) await pause(200);
    }
    assert.equal(woken, 1);
    return raised;
  }

  test('when the next call would pass the cap, then the job waits in budget_wait, and resumes after the cap is raised', async () => {
    const marker = `spend-${randomUUID()}`;
    // A millionth of a dollar: the window's first call (classification) runs, as an empty window admits one; the next cannot.
    const capped = await workerWithCap(0.000001);
    const handle = await harness.startJob(cleanTextInvoice(marker));
    let waiting: JobState | undefined;
    for (let i = 0; i < 600 && waiting?.status !== 'budget_wait'; i++) {
      waiting = await handle.query(statusQuery).catch(() => undefined);
      if (waiting?.status !== 'budget_wait') await pause(100);
    }
    assert.equal(waiting?.status, 'budget_wait', `the job is ${waiting?.status}`);
    assert.equal(waiting.step, 'extractInvoiceFields');
    assert.equal(waiting.budgetWait?.window, 'day');
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    assert.equal(waiting.budgetWait?.resumesAt, midnight.toISOString());
    assert.deepEqual(
      (await harness.simulatorCalls(marker)).map((call) => call.tool),
      ['classify_document'],
      'the refused extraction never reached the provider',
    );

    const raised = await raiseCapAndWake(capped);
    const state = await handle.result();
    await stopWorker(raised);
    assert.equal(state.status, 'posted');
    const day = new Date().toISOString().slice(0, 10);
    const spent = (await new RedisSpendStore(redis.client(), { keyPrefix: prefix }).totalsOn('demo', day)).day;
    assert.ok(Math.abs(spent - state.usage.costUsd) < 1e-12, `the tenant's day total ${spent} is the job's cost ${state.usage.costUsd}`);
  });

  test('when a document’s chunk calls would pass the cap, then the job waits in budget_wait on processDocumentChunk, and after the raise every call is paid once and counted in the tenant’s total', async () => {
    const marker = `spend-doc-${randomUUID()}`;
    // Its own totals: the tenant's spend in the invoice test above must not count here.
    const documentPrefix = `${prefix}-doc`;
    const document = Array.from({ length: 6 }, (_, page) => `${marker} ${longDocumentPage(page + 1).paragraphs.join(' ')}`).join('\f');
    // The empty window admits the first chunk's summary; the cap refuses the next one and the group's embeddings.
    const capped = await workerWithCap(0.000001, documentPrefix);
    const handle = await harness.startDocumentJob(document, { chunksPerGroup: 2, parallelGroups: 1, parallelChunks: 1 });
    const waiting = await stateWhen<DocumentJobState>(handle, 'budget_wait');
    assert.equal(waiting?.status, 'budget_wait', `the job is ${waiting?.status}`);
    assert.equal(waiting.step, 'processDocumentChunk');
    assert.equal(waiting.budgetWait?.window, 'day');
    assert.ok((await harness.simulatorCalls(marker, 'summarize_chunk')).length <= 1, 'no chunk summary after the refusal');

    const raised = await raiseCapAndWake(capped, documentPrefix);
    const state = (await handle.result()) as DocumentJobState;
    await stopWorker(raised);
    assert.equal(state.status, 'completed');
    const chunks = state.result?.chunks ?? 0;
    const summaries = (await harness.simulatorCalls(marker, 'summarize_chunk')).filter((call) => call.status === 200);
    assert.equal(summaries.length, chunks, 'every chunk summary was paid for once');
    // Embeddings and summaries, refused or kept or new: the tenant's total is exactly what the job says it cost.
    const day = new Date().toISOString().slice(0, 10);
    const spent = (await new RedisSpendStore(redis.client(), { keyPrefix: documentPrefix }).totalsOn('demo', day)).day;
    // A summary per chunk, at least an embeddings request per group of two, and the document's summary.
    assert.ok(state.usage.calls >= chunks + Math.ceil(chunks / 2) + 1, `${state.usage.calls} calls for ${chunks} chunks and the summary`);
    assert.ok(Math.abs(spent - state.usage.costUsd) < 1e-12, `the tenant's day total ${spent} is the job's cost ${state.usage.costUsd}`);
  });

  test('when a call’s next chunk would pass the cap, then the job waits in budget_wait on transcribeCallChunk, and after the raise its transcription and summary are counted in the tenant’s total', async () => {
    const callPrefix = `${prefix}-call`;
    const dir = await mkdtemp(join(tmpdir(), 'spend-call-'));
    let recording: Buffer;
    try {
      recording = await readFile((await speakCall(SAMPLE_CALL, join(dir, 'call.wav'), { carryScript: true })).path);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // The empty window admits the first chunk; the cap refuses the next, as it refuses a model step.
    const capped = await workerWithCap(0.000001, callPrefix);
    const handle = await harness.startCallJob(recording);
    const waiting = await stateWhen<CallJobState>(handle, 'budget_wait');
    assert.equal(waiting?.status, 'budget_wait', `the job is ${waiting?.status}`);
    assert.equal(waiting.step, 'transcribeCallChunk');
    assert.equal(waiting.budgetWait?.window, 'day');

    const raised = await raiseCapAndWake(capped, callPrefix);
    const state = (await handle.result()) as CallJobState;
    await stopWorker(raised);
    assert.equal(state.status, 'completed');
    const chunks = state.result?.chunks ?? 0;
    assert.ok(chunks >= 2, `${chunks} chunks`);
    // A transcription per chunk and the summary: the tenant's total is exactly what the job says it cost.
    assert.ok(state.usage.calls >= chunks + 1, `${state.usage.calls} calls for ${chunks} chunks and the summary`);
    const day = new Date().toISOString().slice(0, 10);
    const spent = (await new RedisSpendStore(redis.client(), { keyPrefix: callPrefix }).totalsOn('demo', day)).day;
    assert.ok(spent > 0);
    assert.ok(Math.abs(spent - state.usage.costUsd) < 1e-12, `the tenant's day total ${spent} is the job's cost ${state.usage.costUsd}`);
  });
});
