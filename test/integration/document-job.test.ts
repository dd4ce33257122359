import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import type { ChunkRecord } from '../../activities/document/contracts';
import type { JobProgress } from '../../common/job';
import type { DocumentJobState } from '../../common/job-types/document/document-job';
import { loadConfig } from '../../lib/config';
import { createObjectStore } from '../../lib/object-store';
import { renderLongDocument } from '../../local/samples/long-document';
import { SCANNED_PAGE_TRANSCRIPTION } from '../../local/simulator/model';
import { submit, waitForJob } from '../support/api-client';
import { temporalClient } from '../support/operations';
import { schemaProblems } from '../support/openapi-conformance';
import { mixedPdfOf } from '../support/scans';
import { testEnv } from '../support/test-env';

describe('a document job through the real stack (API, Temporal, S3, simulator with embeddings)', () => {
  test('when a 12-page PDF is submitted as type=document, then its chunks with page ranges and vectors and its summary are in S3', async () => {
    const pdf = await renderLongDocument(12);
    const submitted = await submit(pdf, { fileName: 'report.pdf', fields: { type: 'document' } });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    assert.match(jobId, /^document:demo:/);

    const done = await waitForJob(jobId, ['completed', 'failed', 'dead_letter'], 180_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const client = await temporalClient();
    let state: DocumentJobState;
    try {
      state = (await client.workflow.getHandle(jobId).result()) as DocumentJobState;
    } finally {
      await client.connection.close();
    }
    const result = state.result;
    assert.ok(result);
    assert.equal(result.pages, 12);
    // GET /jobs/:id shows the progress the workflow published last, usage and all.
    const progress = done.progress as JobProgress | undefined;
    assert.deepEqual(schemaProblems('JobProgress', progress), []);
    assert.deepEqual([progress?.pagesRead, progress?.done, progress?.total, progress?.failed], [12, result.chunks, result.chunks, 0]);
    assert.deepEqual(progress, state.progress);
    assert.deepEqual(progress?.usage, state.usage);
    // Each chunk: one summary call; each group of chunks: one embeddings request of all its chunks; then the reduce.
    const config = loadConfig(testEnv().productEnv ?? {});
    const embeddingRequests = Math.ceil(result.chunks / config.document.chunksPerGroup);
    assert.ok(embeddingRequests < result.chunks, `${result.chunks} chunks make more than one group's worth`);
    assert.equal(state.usage.calls, result.chunks + embeddingRequests + 1);
    assert.ok(state.usage.costUsd > 0);
    // Every call is counted under its lane, child workflows' calls included, so the lanes add up to the totals.
    // A document is bulk by default: its summaries and the reduce take the batch lane, its embeddings go live.
    const lanes = state.usage.byLane ?? {};
    assert.equal(lanes.live?.calls, embeddingRequests);
    assert.equal(lanes.batch?.calls, result.chunks + 1);
    assert.ok(Math.abs((lanes.live?.costUsd ?? 0) + (lanes.batch?.costUsd ?? 0) - state.usage.costUsd) < 1e-9);

    const store = createObjectStore(config);
    const lines = (await store.getBytes(result.chunksKey)).toString('utf8').trim().split('\n');
    const chunks = lines.map((line) => JSON.parse(line) as ChunkRecord);
    assert.equal(chunks.length, result.chunks);
    assert.deepEqual(
      chunks.map((chunk) => chunk.index),
      chunks.map((_, index) => index),
    );
    assert.equal(chunks[0]?.firstPage, 1);
    assert.equal(chunks.at(-1)?.lastPage, 12);
    for (const chunk of chunks) {
      assert.ok(chunk.firstPage <= chunk.lastPage);
      assert.equal(chunk.embedding.length, config.embeddings.dimension);
      assert.ok(chunk.summary.length > 0);
    }
    const summary = JSON.parse((await store.getBytes(result.summaryKey)).toString('utf8')) as { title: string; summary: string; pages: number };
    assert.equal(summary.pages, 12);
    assert.equal(summary.title, result.title);
    assert.match(summary.summary, /Lyon|Gdansk|Porto|Aarhus|North Sea/);
  }, 240_000);

  test('when a PDF has scanned pages, then the model reads each from the page itself and its transcription is chunked, summarised and embedded', async () => {
    const pdf = await mixedPdfOf(['text', 'scan', 'blank', 'text', 'scan']);
    const submitted = await submit(pdf, { fileName: 'scanned-report.pdf', fields: { type: 'document' } });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const done = await waitForJob(submitted.body.jobId as string, ['completed', 'failed', 'dead_letter'], 180_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const client = await temporalClient();
    let state: DocumentJobState;
    try {
      state = (await client.workflow.getHandle(submitted.body.jobId as string).result()) as DocumentJobState;
    } finally {
      await client.connection.close();
    }
    const result = state.result;
    assert.ok(result);
    const config = loadConfig(testEnv().productEnv ?? {});
    const lines = (await createObjectStore(config).getBytes(result.chunksKey)).toString('utf8').trim().split('\n');
    const chunks = lines.map((line) => JSON.parse(line) as ChunkRecord);
    // Pages 1, 4 are text (one chunk each: the scan between them splits them), 2 and 5 scans, 3 blank (nothing).
    assert.deepEqual(
      chunks.map((chunk) => [chunk.firstPage, chunk.lastPage]),
      [
        [1, 1],
        [2, 2],
        [4, 4],
        [5, 5],
      ],
    );
    for (const scan of [chunks[1], chunks[3]]) {
      assert.equal(scan?.text, SCANNED_PAGE_TRANSCRIPTION.text);
      assert.equal(scan?.summary, SCANNED_PAGE_TRANSCRIPTION.summary);
      assert.equal(scan?.embedding.length, config.embeddings.dimension);
    }
    assert.match(chunks[2]?.text ?? '', /Page 4 holds/);
    // A transcription or summary call per chunk, scan or text; one embeddings request for the group's four; then the reduce.
    assert.equal(state.usage.calls, chunks.length + 1 + 1);
  }, 240_000);
});
