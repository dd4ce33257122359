import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { describe, test } from '@jest/globals';
import type { OrderScoreInput } from '../../common/job-types/order-score/order-score';
import { acme, apiUrl, cancelJob, demo, review, submitJson, waitForJob } from '../support/api-client';
import { greyOrder, safeOrder } from '../../local/samples/sample-orders';
import { testEnv } from '../support/test-env';

describe('order.score end to end on the real stack', () => {
  test('when a low-risk order is submitted as JSON, then the model approves it with one call, and the same key returns the same job', async () => {
    const key = `score-${randomUUID()}`;
    const order = safeOrder(key);
    const submitted = await submitJson({ type: 'order.score', input: order }, { key });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    assert.equal(jobId, `order.score:${demo.id}:${key}`);

    const done = await waitForJob(jobId, ['completed', 'awaiting_review', 'failed', 'dead_letter']);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.type, 'order.score');
    assert.deepEqual(done.result, { score: 0, decision: 'approve', reasons: ['returning customer (5+ orders)'], decidedBy: 'model' });
    assert.equal(done.usage?.calls, 1);
    assert.deepEqual(done.input, order);
    // Its document, where every job links, is the input it was given.
    const document = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}/document`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
    assert.equal(document.status, 200);
    assert.match(document.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(await document.json(), order);

    const again = await submitJson({ type: 'order.score', input: order }, { key });
    assert.equal(again.status, 202);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const changed = await submitJson({ type: 'order.score', input: { ...order, order: { ...order.order, totalAmount: 81 } } }, { key });
    assert.equal(changed.status, 409);
    assert.equal(changed.body.error?.code, 'idempotency_key_reused');

    const listed = await fetch(`${apiUrl()}/jobs?type=order.score&status=completed`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
    const list = (await listed.json()) as { jobs: Array<{ jobId: string; type?: string; name?: string }> };
    const found = list.jobs.find((job) => job.jobId === jobId);
    assert.ok(found, 'the completed job is listed under its type');
    assert.equal(found.type, 'order.score');
    assert.equal(found.name, order.order.id, 'named by its order, as the type says (namedBy)');
    assert.ok(list.jobs.every((job) => job.type === 'order.score'));
  });

  test('when an order is in the grey zone, then it waits for a reviewer who sees the order and the reasons, and approves it without fields', async () => {
    const key = `score-${randomUUID()}`;
    const submitted = await submitJson({ type: 'order.score', input: greyOrder(key) }, { key });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    const waiting = await waitForJob(jobId, ['awaiting_review', 'completed', 'failed']);
    assert.equal(waiting.status, 'awaiting_review', JSON.stringify(waiting));
    assert.deepEqual(waiting.proposal, {
      score: 0.5,
      decision: 'review',
      reasons: ['new account (under 30 days)', 'ships to another country than the billing address'],
    });
    assert.equal((waiting.input as OrderScoreInput).customer.accountAgeDays, 7);

    const withFields = await review(jobId, { decision: 'approve', fields: { invoiceNumber: 'x' } });
    assert.equal(withFields.status, 422, JSON.stringify(withFields.body));
    const decided = await review(jobId, { decision: 'approve' });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    const done = await waitForJob(jobId, ['completed']);
    assert.deepEqual(done.result, {
      score: 0.5,
      decision: 'approve',
      reasons: ['new account (under 30 days)', 'ships to another country than the billing address'],
      decidedBy: 'reviewer',
    });
  });

  test('when a JSON body names a file type or breaks the input schema, then 400 names the field', async () => {
    const fileType = await submitJson({ type: 'invoice', input: {} });
    assert.equal(fileType.status, 400);
    const broken = await submitJson({ type: 'order.score', input: { ...safeOrder('x'), order: { id: 'x', totalAmount: -1, currency: 'EUR', itemCount: 1 } } });
    assert.equal(broken.status, 400);
    assert.equal(broken.body.error?.code, 'invalid_request');
  });
});

describe('POST /jobs/:id/cancel on the real stack', () => {
  test('when a job is cancelled while its model call runs, then it ends cancelled, and a second cancel answers the same', async () => {
    const key = `cancel-${randomUUID()}`;
    // The simulator holds this order's call for 60 s: the job is surely mid-step when the cancel comes.
    const rule = await fetch(`${testEnv().simulatorUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ match: { tool: 'score_order', textIncludes: key }, fault: { kind: 'slow', delayMs: 60_000 }, times: 1 }),
    });
    assert.equal(rule.status, 201);
    const submitted = await submitJson({ type: 'order.score', input: safeOrder(key) }, { key });
    const jobId = submitted.body.jobId as string;
    const running = await waitForJob(jobId, ['processing']);
    assert.equal(running.step, 'scoreOrder');

    const foreign = await cancelJob(jobId, acme.apiKey);
    assert.equal(foreign.status, 404, 'another tenant’s job answers like a missing one');
    const cancelled = await cancelJob(jobId);
    assert.ok([200, 202].includes(cancelled.status), JSON.stringify(cancelled.body));
    const done = await waitForJob(jobId, ['cancelled', 'completed', 'failed'], 30_000);
    assert.equal(done.status, 'cancelled', JSON.stringify(done));
    assert.equal(done.result, undefined, 'nothing was decided');

    const again = await cancelJob(jobId);
    assert.equal(again.status, 200);
    assert.equal(again.body.status, 'cancelled');
  });

  test('when a job already finished, then a cancel answers 409 job_finished with its status', async () => {
    const key = `cancel-${randomUUID()}`;
    const submitted = await submitJson({ type: 'order.score', input: safeOrder(key) }, { key });
    const jobId = submitted.body.jobId as string;
    await waitForJob(jobId, ['completed']);
    const refused = await cancelJob(jobId);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error?.code, 'job_finished');
    assert.equal(refused.body.error?.details?.status, 'completed');
  });
});
