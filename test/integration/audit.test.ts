import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { describe, test } from '@jest/globals';
import type { AuditList, AuditRecord } from '../../common/api-contract/audit';
import { acme, apiUrl, demo, submit, waitForJob } from '../support/api-client';
import { sampleWith } from '../support/samples';
import { submitJobThatParks } from '../support/operations';
import { TEST_OPERATOR } from '../support/test-credentials';

/** Fields a reviewer approves with; their values must never reach the audit trail. */
const FIELDS = {
  invoiceNumber: 'AUDIT-SECRET-4711',
  issuer: 'Confidential Supplier Ltd',
  issueDate: '2026-11-02',
  dueDate: null,
  currency: 'EUR',
  totalAmount: 1,
  subtotalAmount: null,
  taxAmount: null,
  lineItems: [],
};

async function post(path: string, token: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${apiUrl()}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
}

async function auditPage(path: string, token: string): Promise<{ status: number; body: AuditList & { error?: { code: string } } }> {
  const response = await fetch(`${apiUrl()}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: (await response.json()) as AuditList & { error?: { code: string } } };
}

/** Every record a query finds, following nextPageToken page by page. */
async function allRecords(query: Record<string, string>, token = demo.apiKey, route = '/audit'): Promise<AuditRecord[]> {
  const records: AuditRecord[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < 200; page++) {
    const { status, body } = await auditPage(`${route}?${new URLSearchParams({ ...query, ...(pageToken ? { pageToken } : {}) })}`, token);
    assert.equal(status, 200, JSON.stringify(body));
    records.push(...body.records);
    pageToken = body.nextPageToken;
    if (!pageToken) return records;
  }
  assert.fail('the audit trail did not end within 200 pages');
}

async function awaitingReviewJob(): Promise<string> {
  const sample = await sampleWith('awaiting_review');
  const { body } = await submit(sample.bytes, { fileName: sample.fileName });
  const jobId = body.jobId as string;
  await waitForJob(jobId, ['awaiting_review']);
  return jobId;
}

describe('the audit trail: every decision and operator action, recorded once, readable by its own tenant', () => {
  test('when a reviewer approves and resends the same decision, then one record says who, what, when and the request id, without the fields', async () => {
    const jobId = await awaitingReviewJob();
    const path = `/jobs/${encodeURIComponent(jobId)}/review`;
    const headers = { 'idempotency-key': `audit-${randomUUID()}`, 'x-request-id': `req-${randomUUID()}` };
    const before = Date.now();
    assert.equal((await post(path, demo.reviewerToken, { decision: 'approve', fields: FIELDS }, headers)).status, 200);
    assert.equal((await post(path, demo.reviewerToken, { decision: 'approve', fields: FIELDS }, headers)).status, 200);

    const records = await allRecords({ jobId });
    assert.equal(records.length, 1, JSON.stringify(records));
    const [record] = records as [AuditRecord];
    assert.equal(record.action, 'review.approve');
    assert.equal(record.tenantId, 'demo');
    assert.deepEqual(record.actor, { kind: 'reviewer', id: demo.reviewer.id, via: 'token' });
    assert.equal(record.requestId, headers['x-request-id']);
    assert.equal(record.outcome, 'done');
    assert.ok(Date.parse(record.at) >= before - 1_000 && Date.parse(record.at) <= Date.now(), record.at);
    assert.deepEqual(record.details, { fieldsSent: true });
    assert.ok(!JSON.stringify(records).includes('AUDIT-SECRET-4711') && !JSON.stringify(records).includes('Confidential'), 'no field values');
  });

  test('when a second reviewer decides a job already decided, then that attempt is on record as refused with its code', async () => {
    const jobId = await awaitingReviewJob();
    const path = `/jobs/${encodeURIComponent(jobId)}/review`;
    assert.equal((await post(path, demo.reviewerToken, { decision: 'reject', reason: 'a duplicate of one we paid' })).status, 200);
    const second = demo.reviewers[1];
    assert.ok(second, 'the test tenant has a second reviewer');
    assert.equal((await post(path, second.token, { decision: 'approve', fields: FIELDS })).status, 409);

    const records = await allRecords({ jobId });
    const summary = records.map((record) => [record.action, record.actor.id, record.outcome, record.outcomeCode ?? null]);
    assert.deepEqual(summary, [
      ['review.approve', second.id, 'refused', 'not_awaiting_review'],
      ['review.reject', demo.reviewer.id, 'done', null],
    ]);
    assert.ok(!JSON.stringify(records).includes('duplicate of one'), 'the reason stays in the job, not the trail');
  });

  test('when a job is erased, then the erasure stays on record after the job is gone, under the request id the answer carries', async () => {
    const sample = await sampleWith('posted', false);
    const jobId = (await submit(sample.bytes, { fileName: sample.fileName })).body.jobId as string;
    await waitForJob(jobId, ['posted', 'awaiting_review']);
    const requestId = `erase-${randomUUID()}`;
    const erased = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${demo.apiKey}`, 'x-request-id': requestId },
    });
    assert.equal(erased.status, 200);
    assert.equal(erased.headers.get('x-request-id'), requestId);
    const job = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
    assert.equal(job.status, 404);

    const records = await allRecords({ jobId, action: 'job.erase' });
    assert.deepEqual(
      records.map((record) => [record.actor.kind, record.requestId, record.outcome]),
      [['api-key', requestId, 'done']],
    );
  });

  test('when an operator abandons a dead letter and raises a spend cap, then the tenant reads both, and the other tenant neither', async () => {
    const { jobId, removeFault } = await submitJobThatParks();
    await waitForJob(jobId, ['dead_letter']);
    await removeFault();
    const abandonKey = `abandon-${randomUUID()}`;
    const abandon = `/admin/jobs/${encodeURIComponent(jobId)}/abandon`;
    assert.equal((await post(abandon, TEST_OPERATOR.token, { reason: 'customer sends a new copy' }, { 'idempotency-key': abandonKey })).status, 200);
    // The same request again: the job is closed now (409), and it is still the one record.
    assert.equal((await post(abandon, TEST_OPERATOR.token, {}, { 'idempotency-key': abandonKey })).status, 409);
    await waitForJob(jobId, ['failed']);
    const capKey = `cap-${randomUUID()}`;
    assert.equal((await post('/admin/tenants/demo/spend-cap-raised', TEST_OPERATOR.token, {}, { 'idempotency-key': capKey })).status, 200);

    const abandoned = await allRecords({ jobId });
    assert.deepEqual(
      abandoned.map((record) => [record.action, record.actor.kind, record.actor.id]),
      [['job.abandon', 'operator', TEST_OPERATOR.id]],
    );
    const byOperator = await allRecords({ actor: TEST_OPERATOR.id, action: 'tenant.spend-cap-raised' });
    assert.ok(byOperator.length >= 1 && byOperator.every((record) => record.tenantId === 'demo' && record.actor.id === TEST_OPERATOR.id));

    // Acme sees none of demo's records, by job id, by action, or in its whole trail.
    assert.deepEqual(await allRecords({ jobId }, acme.apiKey), []);
    const acmeAll = await allRecords({}, acme.apiKey);
    assert.ok(acmeAll.every((record) => record.tenantId === 'acme'), 'only acme records');
    assert.ok(!JSON.stringify(acmeAll).includes(jobId));
    // Operators read any tenant's, one tenant at a time.
    assert.ok((await allRecords({ tenant: 'demo', jobId }, TEST_OPERATOR.token, '/admin/audit')).length === 1);
    assert.deepEqual(await allRecords({ tenant: 'acme', jobId }, TEST_OPERATOR.token, '/admin/audit'), []);
  });

  test('when the trail is read a page at a time with filters, then pages neither repeat nor skip, newest first, and a token is bound to its tenant', async () => {
    // Three decisions of this test's own, on three jobs, by the same reviewer.
    const marker = new Date().toISOString();
    const jobIds = await Promise.all([awaitingReviewJob(), awaitingReviewJob(), awaitingReviewJob()]);
    for (const jobId of jobIds) {
      assert.equal((await post(`/jobs/${encodeURIComponent(jobId)}/review`, demo.reviewerToken, { decision: 'reject', reason: 'paging' })).status, 200);
    }
    const whole = await allRecords({ action: 'review.reject', from: marker });
    const ours = whole.filter((record) => jobIds.includes(record.jobId ?? ''));
    assert.equal(ours.length, 3);
    const paged = await allRecords({ action: 'review.reject', from: marker, limit: '1' });
    assert.deepEqual(paged.map((record) => record.recordId), whole.map((record) => record.recordId), 'one a page, the same records in the same order');
    assert.equal(new Set(paged.map((record) => record.recordId)).size, paged.length, 'no record twice');
    const times = paged.map((record) => Date.parse(record.at));
    assert.deepEqual(times, [...times].sort((a, b) => b - a), 'newest first');
    // A time range that ends before these decisions holds none of them.
    const before = await allRecords({ action: 'review.reject', to: marker });
    assert.ok(!before.some((record) => jobIds.includes(record.jobId ?? '')));

    const first = await auditPage(`/audit?${new URLSearchParams({ action: 'review.reject', from: marker, limit: '1' })}`, demo.apiKey);
    const token = first.body.nextPageToken;
    assert.ok(token, 'a second page exists');
    const stolen = await auditPage(`/audit?${new URLSearchParams({ action: 'review.reject', from: marker, limit: '1', pageToken: token })}`, acme.apiKey);
    // A token of the right shape for a list it did not come from names no page of that list.
    assert.equal(stolen.status, 404, 'another tenant cannot page with it');
    const otherFilter = await auditPage(`/audit?${new URLSearchParams({ limit: '1', pageToken: token })}`, demo.apiKey);
    assert.equal(otherFilter.status, 404, 'nor another filter');
  });

  test('when a reviewer token or no key asks for the trail, then 401: it is the tenant’s (API key) and operators’ to read', async () => {
    assert.equal((await auditPage('/audit', demo.reviewerToken)).status, 401);
    assert.equal((await fetch(`${apiUrl()}/audit`)).status, 401);
    assert.equal((await auditPage('/admin/audit?tenant=demo', demo.apiKey)).status, 401);
  });
});
