import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { describe, test } from '@jest/globals';
import { acme, apiUrl, demo, getJob, review, submit, waitForJob } from '../support/api-client';
import { JOB_TYPE_DEFINITIONS } from '../../common/job-types/registry';
import { sampleInvoice as validInvoice } from '../support/fake-activities';
import { sampleWith } from '../support/samples';
import { conformanceProblems } from '../support/openapi-conformance';
import { LONG_DOCUMENT_PAGES, renderLongDocument } from '../../local/samples/long-document';

const minimalPdf = new TextEncoder().encode('%PDF-1.4\n% not a real document\n');

describe('API errors: a status, a stable code, a message that says what to fix', () => {
  test('when no API key is sent, then 401 unauthorized', async () => {
    const response = await fetch(`${apiUrl()}/jobs`, { method: 'POST' });
    assert.equal(response.status, 401);
    const body = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'unauthorized');
    assert.match(body.error.message, /Bearer/);
  });

  test('when a wrong API key is sent, then 401', async () => {
    const { status, body } = await submit(minimalPdf, { apiKey: 'not-a-key' });
    assert.equal(status, 401);
    assert.equal(body.error?.code, 'unauthorized');
  });

  test('when the file part is missing, then 400 naming it', async () => {
    const form = new FormData();
    form.set('type', 'invoice');
    const response = await fetch(`${apiUrl()}/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.apiKey}` },
      body: form,
    });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'invalid_request');
    assert.match(body.error.message, /"file"/);
  });

  test('when the type field is wrong or an unknown field is sent, then 400 naming the field', async () => {
    const wrongType = await submit(minimalPdf, { type: 'receipt' });
    assert.equal(wrongType.status, 400);
    assert.match(wrongType.body.error?.message ?? '', /"type"/);
    const unknown = await submit(minimalPdf, { fields: { type: 'invoice', colour: 'blue' } });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error?.message ?? '', /colour/);
    const badPriority = await submit(minimalPdf, { fields: { type: 'invoice', priority: 'urgent' } });
    assert.equal(badPriority.status, 400);
    assert.match(badPriority.body.error?.message ?? '', /priority/);
  });

  test('when a JSON body names no JSON-input type, then 400 saying how to send each kind of job', async () => {
    const response = await fetch(`${apiUrl()}/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.apiKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(response.status, 400);
    const { message } = ((await response.json()) as { error: { message: string } }).error;
    assert.match(message, /upload their file as multipart\/form-data/);
    // Every type of the registry is named, each under the way it is sent.
    const [jsonPart, filePart] = message.split(';');
    for (const definition of JOB_TYPE_DEFINITIONS) {
      assert.ok((definition.input.kind === 'json' ? jsonPart : filePart)?.includes(definition.name), `${definition.name} in: ${message}`);
    }
  });

  test('when the Idempotency-Key has characters outside the allowed set, then 400', async () => {
    const { status, body } = await submit(minimalPdf, { key: 'has spaces and /slashes' });
    assert.equal(status, 400);
    assert.match(body.error?.message ?? '', /Idempotency-Key/);
  });

  test('when the file is bigger than the limit, then 413 with the limit', async () => {
    const big = new Uint8Array(25 * 1024 * 1024 + 1024);
    big.set(minimalPdf);
    const { status, body } = await submit(big);
    assert.equal(status, 413);
    assert.equal(body.error?.code, 'payload_too_large');
    assert.equal(body.error?.details?.limitBytes, 25 * 1024 * 1024);
  });

  test('when a 300-page PDF is submitted as an invoice, then 413 too_many_pages at submit, the same shape as a document past its limit', async () => {
    const documentLimit = 500; // DOCUMENT_MAX_PAGES as the test stack leaves it
    const asInvoice = await submit(await renderLongDocument(LONG_DOCUMENT_PAGES), { type: 'invoice', fileName: 'report.pdf' });
    const asDocument = await submit(await renderLongDocument(documentLimit + 1), { type: 'document', fileName: 'report.pdf' });
    assert.equal(asInvoice.status, 413, JSON.stringify(asInvoice.body));
    assert.equal(asDocument.status, 413, JSON.stringify(asDocument.body));
    // One page over what one model request reads of a scan (MODEL_SCANNED_MAX_PAGES, 100 unless lowered).
    assert.deepEqual(asInvoice.body.error?.details, { pages: LONG_DOCUMENT_PAGES, limitPages: 100 });
    assert.deepEqual(asDocument.body.error?.details, { pages: documentLimit + 1, limitPages: documentLimit });
    for (const answer of [asInvoice, asDocument]) {
      assert.equal(answer.body.error?.code, 'too_many_pages');
      assert.deepEqual(Object.keys(answer.body), ['error']);
      assert.deepEqual(Object.keys(answer.body.error ?? {}).sort(), ['code', 'details', 'message']);
      const problems = conformanceProblems({ method: 'POST', path: '/jobs', status: 413, contentType: answer.headers.get('content-type'), body: JSON.stringify(answer.body) });
      assert.deepEqual(problems, []);
    }
  });

  test('when the bytes are neither PDF, PNG, JPEG nor text, then 415 whatever the file is called', async () => {
    const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0, 0x01, 0, 0x80, 0, 0, 0xff, 0xff, 0xff]);
    const { status, body } = await submit(gif, { fileName: 'invoice.pdf' });
    assert.equal(status, 415);
    assert.equal(body.error?.code, 'unsupported_media_type');
  });

  test('when the file is empty, then 400', async () => {
    const { status, body } = await submit(new Uint8Array(0));
    assert.equal(status, 400);
    assert.match(body.error?.message ?? '', /empty/);
  });

  test('when an Idempotency-Key is reused with a different file, then 409 and the first job is untouched', async () => {
    const key = `reuse-${randomUUID()}`;
    const first = await sampleWith('posted');
    const other = await sampleWith('awaiting_review');
    const created = await submit(first.bytes, { key });
    assert.equal(created.status, 202);
    const conflict = await submit(other.bytes, { key });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.error?.code, 'idempotency_key_reused');
    assert.equal(conflict.body.error?.details?.jobId, created.body.jobId);
  });

  test("when a tenant asks for another tenant's job or an unknown one, then 404 either way", async () => {
    const sample = await sampleWith('posted');
    const { body } = await submit(sample.bytes);
    const jobId = body.jobId as string;
    const foreign = await getJob(jobId, acme.apiKey);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error?.code, 'not_found');
    const unknown = await getJob(`invoice:demo:${randomUUID()}`);
    assert.equal(unknown.status, 404);
    const malformed = await getJob('not-a-job-id');
    assert.equal(malformed.status, 404);
    await waitForJob(jobId, ['posted']);
  });

  test("when a tenant tries to erase another tenant's job, then 404, the attempt is in its own audit trail only, and the owner's trail shows nothing of it", async () => {
    const sample = await sampleWith('posted');
    const jobId = (await submit(sample.bytes)).body.jobId as string;
    const erase = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}`, { method: 'DELETE', headers: { authorization: `Bearer ${acme.apiKey}` } });
    assert.equal(erase.status, 404);
    const trail = async (apiKey: string) => {
      const response = await fetch(`${apiUrl()}/audit?${new URLSearchParams({ jobId })}`, { headers: { authorization: `Bearer ${apiKey}` } });
      assert.equal(response.status, 200);
      return ((await response.json()) as { records: Array<{ tenantId: string; action: string; outcome: string; outcomeCode?: string }> }).records;
    };
    assert.deepEqual(
      (await trail(acme.apiKey)).map((record) => [record.tenantId, record.action, record.outcome, record.outcomeCode]),
      [['acme', 'job.erase', 'refused', 'not_found']],
    );
    assert.deepEqual(await trail(demo.apiKey), []);
    await waitForJob(jobId, ['posted']);
  });

  test('when a job is not awaiting review, then a review is 409; an unknown job is 404', async () => {
    const sample = await sampleWith('posted');
    const { body } = await submit(sample.bytes);
    const jobId = body.jobId as string;
    await waitForJob(jobId, ['posted']);
    const answer = await review(jobId, { decision: 'reject', reason: 'because' });
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error?.code, 'not_awaiting_review');
    const missing = await review(`invoice:demo:${randomUUID()}`, { decision: 'reject', reason: 'x' });
    assert.equal(missing.status, 404);
    const badDecision = await review(jobId, { decision: 'maybe' });
    assert.equal(badDecision.status, 400);
  });

  test('when a job is no longer awaiting review, then invalid fields are a 409 not_awaiting_review, not a 422: the fields no longer matter', async () => {
    const sample = await sampleWith('posted');
    const { body } = await submit(sample.bytes);
    const jobId = body.jobId as string;
    await waitForJob(jobId, ['posted']);
    const answer = await review(jobId, { decision: 'approve', fields: { totalAmount: 'lots' } });
    assert.equal(answer.status, 409, JSON.stringify(answer.body));
    assert.equal(answer.body.error?.code, 'not_awaiting_review');
    assert.equal(answer.body.error?.details?.status, 'posted');
  });

  test('when a job waits for a reviewer, then GET says Retry-After 60; invalid fields are a 422 until someone decides, then a 409', async () => {
    const sample = await sampleWith('awaiting_review');
    const { body } = await submit(sample.bytes);
    const jobId = body.jobId as string;
    await waitForJob(jobId, ['awaiting_review']);
    const waiting = await getJob(jobId);
    assert.equal(waiting.headers.get('retry-after'), '60', 'a job waiting for a person is not polled every 2 s');

    const invalid = { ...validInvoice, totalAmount: 'lots' };
    const refused = await review(jobId, { decision: 'approve', fields: invalid });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.equal(refused.body.error?.code, 'invalid_fields');

    const approved = await review(jobId, { decision: 'approve', fields: validInvoice });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    const late = await review(jobId, { decision: 'approve', fields: invalid });
    assert.equal(late.status, 409, JSON.stringify(late.body));
    assert.equal(late.body.error?.code, 'not_awaiting_review');

    await waitForJob(jobId, ['posted']);
    assert.equal((await getJob(jobId)).headers.get('retry-after'), null, 'a finished job has nothing to wait for');
  });

  test('when a review’s Idempotency-Key breaks the key rule of POST /jobs, then 400 invalid_request saying what a key may be', async () => {
    for (const key of ['has spaces and /slashes', 'x'.repeat(129)]) {
      const response = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(`invoice:demo:${randomUUID()}`)}/review`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demo.reviewerToken}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ decision: 'reject', reason: 'duplicate' }),
      });
      assert.equal(response.status, 400, key);
      const error = ((await response.json()) as { error: { code: string; message: string } }).error;
      assert.equal(error.code, 'invalid_request');
      assert.match(error.message, /Idempotency-Key must be 1-128 characters/);
    }
  });

  test('when jobs are listed by status, then only this tenant’s jobs with that status come back', async () => {
    const sample = await sampleWith('posted');
    const { body } = await submit(sample.bytes);
    await waitForJob(body.jobId as string, ['posted']);
    const list = async (apiKey: string) => {
      const response = await fetch(`${apiUrl()}/jobs?status=posted&limit=200`, { headers: { authorization: `Bearer ${apiKey}` } });
      assert.equal(response.status, 200);
      return ((await response.json()) as { jobs: Array<{ jobId: string; status: string }> }).jobs;
    };
    // Visibility is eventually consistent: give the list a moment to see the new status.
    let mine: Array<{ jobId: string; status: string }> = [];
    for (let i = 0; i < 40 && !mine.some((job) => job.jobId === body.jobId); i++) {
      mine = await list(demo.apiKey);
      if (!mine.some((job) => job.jobId === body.jobId)) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.ok(mine.some((job) => job.jobId === body.jobId));
    assert.ok(mine.every((job) => job.status === 'posted'));
    assert.ok((await list(acme.apiKey)).every((job) => !job.jobId.startsWith('invoice:demo:')));
    const bad = await fetch(`${apiUrl()}/jobs?status=lost`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
    assert.equal(bad.status, 400);
  });

  test('when the list is paged, then the nextPageToken leads on; a pageToken not of its shape is a 400, one of its shape it did not give out a 404, each naming it', async () => {
    const page = async (query: string) => {
      const response = await fetch(`${apiUrl()}/jobs?limit=1${query}`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
      return { status: response.status, body: (await response.json()) as { jobs?: Array<{ jobId: string }>; nextPageToken?: string; error?: { code: string; details?: { field?: string } } } };
    };
    // Earlier tests in this file leave several jobs of this tenant behind.
    const first = await page('');
    assert.equal(first.status, 200);
    assert.ok(first.body.nextPageToken, 'more than one job, so a next page');
    const second = await page(`&pageToken=${encodeURIComponent(first.body.nextPageToken)}`);
    assert.equal(second.status, 200);
    assert.notEqual(second.body.jobs?.[0]?.jobId, first.body.jobs?.[0]?.jobId);

    for (const token of ['bm90LWEtcGFnZS10b2tlbg', `${first.body.nextPageToken}x`]) {
      const refused = await page(`&pageToken=${encodeURIComponent(token)}`);
      assert.equal(refused.status, 400, token);
      assert.equal(refused.body.error?.code, 'invalid_request');
      assert.equal(refused.body.error?.details?.field, 'pageToken');
    }
    // The shape the document states, with a tag this list never made: a page that does not exist.
    const [body, tag] = first.body.nextPageToken.split('.') as [string, string];
    const forged = `${body}.${tag.startsWith('A') ? 'B' : 'A'}${tag.slice(1)}`;
    const unknown = await page(`&pageToken=${encodeURIComponent(forged)}`);
    assert.equal(unknown.status, 404, forged);
    assert.equal(unknown.body.error?.code, 'not_found');
    assert.equal(unknown.body.error?.details?.field, 'pageToken');
  });
});
