import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { describe, test } from '@jest/globals';
import { getJob, ledgerEntries, submit, waitForJob } from '../support/api-client';
import { cleanTextInvoice } from '../support/fault-harness';
import { testEnv } from '../support/test-env';

async function addFault(rule: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${testEnv().simulatorUrl}/_sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  assert.equal(response.status, 201);
}

async function callStatuses(marker: string, tool: string): Promise<number[]> {
  const response = await fetch(`${testEnv().simulatorUrl}/_sim/calls?textIncludes=${marker}&tool=${tool}`);
  return ((await response.json()) as { calls: Array<{ status: number }> }).calls.map((call) => call.status);
}

describe('provider faults through the whole stack', () => {
  test('when the provider answers 429 twice with retry-after, then the step is retried after it and the job posts once', async () => {
    const marker = `ratelimit-${randomUUID()}`;
    await addFault({
      match: { tool: 'classify_document', textIncludes: marker },
      fault: { kind: 'rate_limit', retryAfterSeconds: 1 },
      times: 2,
    });
    const { body } = await submit(new TextEncoder().encode(cleanTextInvoice(marker)), { fileName: 'invoice.txt' });
    const done = await waitForJob(body.jobId as string, ['posted', 'failed', 'dead_letter', 'awaiting_review']);
    assert.equal(done.status, 'posted', JSON.stringify(done));
    assert.equal(done.attempts?.classifyDocument, 3);
    assert.deepEqual((await callStatuses(marker, 'classify_document')).sort(), [200, 429, 429]);
    assert.equal((await ledgerEntries(body.jobId as string)).length, 1);
  });

  test('when a step waits out a 429, then GET /jobs/:id names its attempt, the failure and when it tries again', async () => {
    const marker = `waiting-${randomUUID()}`;
    await addFault({
      match: { tool: 'classify_document', textIncludes: marker },
      fault: { kind: 'rate_limit', retryAfterSeconds: 5 },
      times: 1,
    });
    const { body } = await submit(new TextEncoder().encode(cleanTextInvoice(marker)), { fileName: 'invoice.txt' });
    const jobId = body.jobId as string;
    let seen: Awaited<ReturnType<typeof getJob>>['body'] | undefined;
    for (let i = 0; i < 100 && !seen; i++) {
      const { body: view } = await getJob(jobId);
      if (view.currentAttempt?.lastFailure) seen = view;
      else if (view.status !== 'processing' && view.status !== 'queued') break;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(seen?.currentAttempt, 'the waiting step was visible');
    assert.equal(seen.currentAttempt.step, 'classifyDocument');
    assert.equal(seen.currentAttempt.attempt, 2);
    assert.equal(seen.currentAttempt.lastFailure?.type, 'ModelRateLimitedError');
    assert.ok(seen.currentAttempt.nextAttemptAt, 'the next try is scheduled');
    const done = await waitForJob(jobId, ['posted', 'failed', 'dead_letter', 'awaiting_review']);
    assert.equal(done.status, 'posted', JSON.stringify(done));
    assert.equal(done.currentAttempt, undefined, 'nothing is in flight once the job is done');
  });

  test('when the provider is overloaded (529) and then recovers, then the job still posts exactly once', async () => {
    const marker = `overloaded-${randomUUID()}`;
    await addFault({ match: { tool: 'record_invoice', textIncludes: marker }, fault: { kind: 'overloaded' }, times: 1 });
    const { body } = await submit(new TextEncoder().encode(cleanTextInvoice(marker)), { fileName: 'invoice.txt' });
    const done = await waitForJob(body.jobId as string, ['posted', 'failed', 'dead_letter', 'awaiting_review']);
    assert.equal(done.status, 'posted', JSON.stringify(done));
    assert.equal(done.attempts?.extractInvoiceFields, 2);
    assert.equal((await ledgerEntries(body.jobId as string)).length, 1);
  });

  test('when the model refuses the document, then the job stops at once with ContentRefusedError and nothing is posted', async () => {
    const marker = `refusal-${randomUUID()}`;
    await addFault({ match: { tool: 'record_invoice', textIncludes: marker }, fault: { kind: 'refusal' } });
    const { body } = await submit(new TextEncoder().encode(cleanTextInvoice(marker)), { fileName: 'invoice.txt' });
    const parked = await waitForJob(body.jobId as string, ['dead_letter', 'failed', 'posted']);
    assert.equal(parked.status, 'dead_letter', JSON.stringify(parked));
    assert.equal(parked.error?.type, 'ContentRefusedError');
    assert.equal(parked.error?.step, 'extractInvoiceFields');
    assert.equal((await callStatuses(marker, 'record_invoice')).length, 1, 'a refusal is not retried');
    assert.equal((await ledgerEntries(body.jobId as string)).length, 0);
  });

  test('when the model keeps answering outside the schema, then the job goes to review with the raw output attached', async () => {
    const marker = `malformed-${randomUUID()}`;
    await addFault({ match: { tool: 'record_invoice', textIncludes: marker }, fault: { kind: 'malformed' } });
    const { body } = await submit(new TextEncoder().encode(cleanTextInvoice(marker)), { fileName: 'invoice.txt' });
    const waiting = await waitForJob(body.jobId as string, ['awaiting_review', 'posted', 'dead_letter']);
    assert.equal(waiting.status, 'awaiting_review');
    assert.ok(waiting.rawModelOutput, 'the reviewer sees what the model wrote');
    assert.ok((waiting.validationErrors ?? []).length > 0);
    // MAX_EXTRACTION_TRIES (3) tries, each a first call and one repair call (MODEL_REPAIR_TRIES = 1).
    assert.equal((await callStatuses(marker, 'record_invoice')).length, 6, 'asked 3 times, each repaired once');
    assert.equal((await ledgerEntries(body.jobId as string)).length, 0);
  });

  test('when a PDF is corrupt behind a valid header, then the job fails at extractText with InvalidDocumentError for the client, not parked for an operator', async () => {
    const bytes = new TextEncoder().encode(`%PDF-1.7\n${randomUUID()}\nthis is not a PDF body`);
    const { body } = await submit(bytes, { fileName: 'broken.pdf' });
    const failed = await waitForJob(body.jobId as string, ['dead_letter', 'failed', 'posted']);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.step, 'extractText');
    assert.equal(failed.error?.type, 'InvalidDocumentError');
    assert.equal(failed.error?.retryable, false);
    assert.match(failed.error?.message ?? '', /PDF/);
    assert.equal(failed.deadLetter, undefined);
    assert.equal((await getJob(body.jobId as string)).status, 200);
  });
});
