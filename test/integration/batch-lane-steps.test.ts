import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { describe, test } from '@jest/globals';
import type { JobState } from '../../common/job';
import type { DocumentJobState } from '../../common/job-types/document/document-job';
import { TICKETS_DIGEST_BATCHING } from '../../common/job-types/tickets-digest/definition';
import type { TicketsDigest } from '../../common/job-types/tickets-digest/digest';
import { batchLines, ticketLine } from '../../common/job-types/tickets-digest/ticket-lines';
import { SAMPLE_CATALOG } from '../../local/samples/sample-catalog';
import { batchLaneSuite, laneWorkerEnv, TEST_LANE_ALLOWANCE } from '../support/batch-lane-suite';
import { ticketsDay } from '../support/tickets';

/**
 * The invoice's, the document's and the tickets digest's model steps through the batch lane on the stack's simulator: a worker of the
 * bulk queue with a short collect window, jobs that allow the lane, and the simulator's call log telling which
 * lane each request took.
 */
const BULK = { priority: 'bulk' as const, batchLane: TEST_LANE_ALLOWANCE };

describe('the batch lane for invoices, documents and tickets digests', () => {
  const laneHarness = batchLaneSuite({ batchProcessingMs: 3_000, workerEnv: laneWorkerEnv('2s') });

  test('when a bulk invoice runs, then its classification and extraction are answered in batches, each billed once at the batch price, and it posts', async () => {
    const harness = laneHarness();
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
    const harness = laneHarness();
    const marker = `lane-document-${randomUUID()}`;
    const pages = Array.from({ length: 3 }, (_, page) => `Page ${page + 1} of the ${marker} report. The warehouse in Rotterdam shipped ${page + 3} thousand parcels.`);
    const state = (await (await harness.startDocumentJob(pages.join('\f'), { chunkTokens: 100 }, 'report.txt', BULK)).result()) as DocumentJobState;
    assert.equal(state.status, 'completed', JSON.stringify(state.error ?? state.status));
    const chunks = state.result?.chunks ?? 0;
    assert.ok(chunks >= 1);
    assert.equal(state.usage.byLane?.batch?.calls, chunks + 1, 'each chunk summary and the reduce');
    // A document this short is one group of chunks: all its chunks are embedded in one request.
    assert.ok(chunks <= 8, `${chunks} chunks make one group`);
    assert.equal(state.usage.byLane?.live?.calls, 1, 'the embeddings');
    const summaries = await harness.simulatorCalls(marker, 'summarize_chunk');
    assert.ok(summaries.length >= 1);
    assert.ok(summaries.every((call) => call.lane === 'batch'));
  }, 300_000);

  test('when a bulk tickets digest runs, then every batch summary and the narrative are answered in batches, billed at the batch price, and the digest counts every ticket', async () => {
    const harness = laneHarness();
    // The marker starts every ticket id, so it is in each batch's prompt and (through the urgent tickets) the narrative's.
    const marker = `lane-digest-${randomUUID()}`;
    const day = ticketsDay(450, 7, `${marker}-`);
    const batches = batchLines(day.tickets.map(ticketLine), TICKETS_DIGEST_BATCHING.maxBatchCharacters, TICKETS_DIGEST_BATCHING.maxBatchTickets).length;
    assert.ok(batches > 1, 'the day needs several batch summaries');
    assert.ok(day.urgent.length > 0, 'the narrative names urgent tickets, so its prompt holds the marker');

    const state = (await (await harness.startDigestJob(day.bytes, BULK)).result()) as JobState;
    assert.equal(state.status, 'completed', JSON.stringify(state.error ?? state.status));
    const digest = state.result as TicketsDigest | undefined;
    assert.ok(digest, 'the job carries its digest');
    assert.equal(digest.ticketCount, day.tickets.length);
    assert.deepEqual(Object.fromEntries(digest.themes.map((theme) => [theme.name, theme.count])), Object.fromEntries(day.themes));
    assert.equal(digest.unthemedCount, 0);
    assert.equal(digest.urgentCount, day.urgent.length);
    assert.equal(digest.batches, batches);
    assert.equal(state.usage.byLane?.batch?.calls, batches + 1, 'each batch summary and the narrative');
    assert.equal(state.usage.byLane?.live, undefined, 'no model call was asked live');

    const summaries = await harness.simulatorCalls(marker, 'summarise_tickets');
    assert.deepEqual(summaries.map((call) => call.lane), Array.from({ length: batches }, () => 'batch'));
    const narratives = await harness.simulatorCalls(marker, 'write_digest_narrative');
    assert.deepEqual(narratives.map((call) => call.lane), ['batch']);
  }, 300_000);
});
