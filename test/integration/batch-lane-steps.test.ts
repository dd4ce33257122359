import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { JobState } from '../../common/job';
import type { DocumentJobState } from '../../common/job-types/document/document-job';
import { SAMPLE_CATALOG } from '../../local/samples/sample-catalog';
import { FaultHarness } from '../support/fault-harness';

/**
 * The invoice's and the document's model steps through the batch lane on the stack's simulator: a worker of the
 * bulk queue with a short collect window, jobs that allow the lane, and the simulator's call log telling which
 * lane each request took.
 */
const LANE_ENV = { WORKER_PRIORITIES: 'bulk', BATCH_COLLECT_WINDOW: '2s', BATCH_POLL_INTERVAL: '1s' };
const BULK = { priority: 'bulk' as const, batchLane: { deadlineMarginMs: 60_000, maxWaitMs: 10 * 60_000 } };
const BATCH_PROCESSING_MS = 3_000;

describe('the batch lane for invoices and documents', () => {
  let harness: FaultHarness;
  let restore: Record<string, number> = {};
  beforeAll(async () => {
    harness = await FaultHarness.create();
    restore = await harness.simulatorConfig({ batchProcessingMs: BATCH_PROCESSING_MS });
    await harness.startWorker(LANE_ENV);
  }, 300_000);
  afterAll(async () => {
    if (Object.keys(restore).length > 0) await harness.simulatorConfig(restore);
    await harness?.close();
  });

  test('when a bulk invoice runs, then its classification and extraction are answered in batches, each billed once at the batch price, and it posts', async () => {
    const sample = SAMPLE_CATALOG.find((candidate) => candidate.format === 'txt' && candidate.expectedOutcome === 'posted');
    assert.ok(sample?.format === 'txt');
    const marker = `lane-invoice-${randomUUID()}`;
    const state = (await (await harness.startJob(`${sample.text}\nReference: ${marker}\n`, 'invoice.txt', BULK)).result()) as JobState;
    assert.equal(state.status, 'posted', JSON.stringify(state.error ?? state.status));
    assert.equal(state.usage.byLane?.batch?.calls, 2);
    assert.equal(state.usage.byLane?.live, undefined);
    const calls = await harness.simulatorCalls(marker);
    assert.deepEqual(calls.map((call) => call.lane), ['batch', 'batch']);
  }, 300_000);

  test('when a bulk document runs, then every chunk summary and the reduce are answered in batches and only the embeddings go live', async () => {
    const marker = `lane-document-${randomUUID()}`;
    const pages = Array.from({ length: 3 }, (_, page) => `Page ${page + 1} of the ${marker} report. The warehouse in Rotterdam shipped ${page + 3} thousand parcels.`);
    const state = (await (await harness.startDocumentJob(pages.join('\f'), { chunkTokens: 100 }, 'report.txt', BULK)).result()) as DocumentJobState;
    assert.equal(state.status, 'completed', JSON.stringify(state.error ?? state.status));
    const chunks = state.result?.chunks ?? 0;
    assert.ok(chunks >= 1);
    assert.equal(state.usage.byLane?.batch?.calls, chunks + 1, 'each chunk summary and the reduce');
    assert.equal(state.usage.byLane?.live?.calls, chunks, 'the embeddings');
    const summaries = await harness.simulatorCalls(marker, 'summarize_chunk');
    assert.ok(summaries.length >= 1);
    assert.ok(summaries.every((call) => call.lane === 'batch'));
  }, 300_000);
});
