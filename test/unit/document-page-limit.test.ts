import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { localTestConfig, testTenant } from '../support/test-credentials';
import type { JobsService } from '../../api/jobs-service';
import { type RunningApi, startApiServer } from '../../api/server';
import { createLogger } from '../../lib/logger';
import { renderLongDocument } from '../../local/samples/long-document';
import { conformanceProblems } from '../support/openapi-conformance';
import { memoryAuditTrail } from '../support/memory-audit';

const LIMIT = 5;
/** The invoice's pages: what one model request reads of a scan (MODEL_SCANNED_MAX_PAGES), above the document's here. */
const INVOICE_LIMIT = 8;

/** Page limits at submission: the page count is read from the upload before any workflow starts. */
describe('POST /jobs past a type\'s page limit (DOCUMENT_MAX_PAGES, MODEL_SCANNED_MAX_PAGES)', () => {
  let api: RunningApi;
  const submitted: string[] = [];
  beforeAll(async () => {
    const jobs = {
      submitFile: async (jobType: { name: string }) => {
        submitted.push(jobType.name);
        const jobId = `${jobType.name}:demo:k`;
        return { job: { jobId, status: 'queued', links: { self: `/jobs/${jobId}` } }, replayed: false };
      },
    };
    api = await startApiServer(
      { config: localTestConfig({ DOCUMENT_MAX_PAGES: String(LIMIT), MODEL_SCANNED_MAX_PAGES: String(INVOICE_LIMIT) }), jobs: jobs as unknown as JobsService, log: createLogger('test', 'silent'), ready: async () => true, audit: memoryAuditTrail() },
      { host: '127.0.0.1', port: 0 },
    );
  });
  afterAll(() => api?.close());

  const post = async (file: Blob, fileName: string, type: string) => {
    const form = new FormData();
    form.set('type', type);
    form.set('file', file, fileName);
    const response = await fetch(`${api.url}/jobs`, { method: 'POST', headers: { authorization: `Bearer ${testTenant('demo').apiKey}` }, body: form });
    return { status: response.status, text: await response.text(), contentType: response.headers.get('content-type') };
  };

  test('when a PDF has one page more than the limit, then 413 too_many_pages names both counts, as documented, and no job starts', async () => {
    const before = submitted.length;
    const answer = await post(new Blob([await renderLongDocument(LIMIT + 1)]), 'long.pdf', 'document');
    assert.equal(answer.status, 413, answer.text);
    const body = JSON.parse(answer.text) as { error: { code: string; details: Record<string, unknown> } };
    assert.equal(body.error.code, 'too_many_pages');
    assert.deepEqual(body.error.details, { pages: LIMIT + 1, limitPages: LIMIT });
    assert.deepEqual(conformanceProblems({ method: 'POST', path: '/jobs', status: 413, contentType: answer.contentType, body: answer.text }), []);
    assert.equal(submitted.length, before);
  });

  test('when a PDF has exactly the limit, then it is accepted', async () => {
    const answer = await post(new Blob([await renderLongDocument(LIMIT)]), 'long.pdf', 'document');
    assert.equal(answer.status, 202, answer.text);
    assert.equal(submitted.at(-1), 'document');
  });

  test('when a text upload has more form-feed pages than the limit, then 413 too_many_pages', async () => {
    const answer = await post(new Blob([Array.from({ length: LIMIT + 2 }, (_, page) => `page ${page + 1}`).join('\f')], { type: 'text/plain' }), 'long.txt', 'document');
    assert.equal(answer.status, 413, answer.text);
    assert.deepEqual((JSON.parse(answer.text) as { error: { details: unknown } }).error.details, { pages: LIMIT + 2, limitPages: LIMIT });
  });

  test('when an invoice PDF is longer than the document limit, then it is not counted against it', async () => {
    const answer = await post(new Blob([await renderLongDocument(LIMIT + 1)]), 'long.pdf', 'invoice');
    assert.equal(answer.status, 202, answer.text);
    assert.equal(submitted.at(-1), 'invoice');
  });

  test('when an invoice PDF has more pages than one model request reads, then the same 413 too_many_pages as a document\'s, and no job starts', async () => {
    const before = submitted.length;
    const answer = await post(new Blob([await renderLongDocument(INVOICE_LIMIT + 1)]), 'long.pdf', 'invoice');
    assert.equal(answer.status, 413, answer.text);
    const body = JSON.parse(answer.text) as { error: { code: string; details: Record<string, unknown> } };
    assert.equal(body.error.code, 'too_many_pages');
    assert.deepEqual(body.error.details, { pages: INVOICE_LIMIT + 1, limitPages: INVOICE_LIMIT });
    assert.deepEqual(conformanceProblems({ method: 'POST', path: '/jobs', status: 413, contentType: answer.contentType, body: answer.text }), []);
    assert.equal(submitted.length, before);
  });
});
