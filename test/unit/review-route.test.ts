import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { localTestConfig, testTenant } from '../support/test-credentials';
import type { AdminService } from '../../api/admin-service';
import type { Job } from '../../common/api-contract/job';
import type { JobsService } from '../../api/jobs-service';
import { reviewUpdateId } from '../../api/review-update-id';
import { type RunningApi, startApiServer } from '../../api/server';
import { canonicalJson } from '../../common/canonical-json';
import type { SubmitReviewInput } from '../../common/messages';
import pino from 'pino';
import { conformanceProblems } from '../support/openapi-conformance';
import { memoryAuditTrail } from '../support/memory-audit';

const invoice = {
  invoiceNumber: 'INV-1',
  issuer: 'Acme GmbH',
  issueDate: '2026-11-02',
  dueDate: null,
  currency: 'EUR',
  subtotalAmount: 100,
  taxAmount: 19,
  totalAmount: 119,
  lineItems: [{ description: 'Widgets', quantity: 1, unitPrice: 100, amount: 100 }],
};
const demo = testTenant('demo');
const approve = (fields: Record<string, unknown> = invoice): SubmitReviewInput =>
  ({ decision: 'approve', fields, reviewer: demo.reviewer.id }) as unknown as SubmitReviewInput;

describe('the review Update id: the same decision is the same Update, a changed one a new Update', () => {
  test('when the same decision is sent again with the same key, then the id is the same', () => {
    assert.equal(reviewUpdateId('page-1', approve()), reviewUpdateId('page-1', approve({ ...invoice })));
  });

  test('when the same decision comes with its keys in another order, then the id is still the same', () => {
    const reordered = Object.fromEntries(Object.entries(invoice).reverse());
    const reorderedDecision = { reviewer: demo.reviewer.id, fields: reordered, decision: 'approve' } as unknown as SubmitReviewInput;
    assert.equal(reviewUpdateId('page-1', reorderedDecision), reviewUpdateId('page-1', approve()));
  });

  test('when the reviewer edited a field (even inside a line item) before resending with the same key, then the id is new', () => {
    const first = reviewUpdateId('page-1', approve());
    assert.notEqual(reviewUpdateId('page-1', approve({ ...invoice, totalAmount: 120 })), first);
    const lineEdited = { ...invoice, lineItems: [{ ...invoice.lineItems[0], description: 'Gadgets' }] };
    assert.notEqual(reviewUpdateId('page-1', approve(lineEdited)), first);
    assert.notEqual(reviewUpdateId('page-1', { decision: 'reject', reason: 'duplicate', reviewer: 'rita' }), first);
    assert.notEqual(
      reviewUpdateId('page-1', { decision: 'reject', reason: 'duplicate', reviewer: 'rita' }),
      reviewUpdateId('page-1', { decision: 'reject', reason: 'not ours', reviewer: 'rita' }),
    );
    assert.notEqual(reviewUpdateId('page-1', approve({ ...invoice, dueDate: '2026-12-01' })), first, 'null → a date is a change');
  });

  test('when another key is sent, then the id is another one too, and it keeps the key readable', () => {
    assert.notEqual(reviewUpdateId('page-2', approve()), reviewUpdateId('page-1', approve()));
    assert.match(reviewUpdateId('page-1', approve()), /^review:page-1:[0-9a-f]{32}$/);
  });

  test('canonical JSON sorts keys at every level and leaves out undefined members, as JSON.stringify does', () => {
    assert.equal(canonicalJson({ b: 1, a: [{ d: null, c: 'x' }], u: undefined }), '{"a":[{"c":"x","d":null}],"b":1}');
    assert.equal(canonicalJson([undefined, 1]), '[null,1]');
  });
});

describe('POST /jobs/:id/review: the Idempotency-Key and the Update id the route sends', () => {
  let api: RunningApi;
  const calls: Array<{ tenantId: string; jobId: string; review: SubmitReviewInput; updateId: string | undefined }> = [];
  // The API's log as JSON lines, where the audit trail of decisions is read.
  const logLines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
  const jobId = 'invoice:demo:k1';
  const path = `/jobs/${encodeURIComponent(jobId)}/review`;
  beforeAll(async () => {
    // Only the route is under test: the service just records what the route hands it.
    const jobs = {
      review: async (tenantId: string, id: string, review: SubmitReviewInput, updateId?: string): Promise<Job> => {
        calls.push({ tenantId, jobId: id, review, updateId });
        return { jobId: id, type: 'invoice', status: 'processing', detailed: false, links: {} } as unknown as Job;
      },
    } as unknown as JobsService;
    api = await startApiServer(
      { config: localTestConfig(), jobs, admin: {} as unknown as AdminService, log, ready: async () => true, audit: memoryAuditTrail() },
      { host: '127.0.0.1', port: 0 },
    );
  });
  afterAll(() => api?.close());

  const post = async (body: unknown, key?: string, token = demo.reviewerToken) => {
    const response = await fetch(`${api.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, contentType: response.headers.get('content-type') };
  };

  for (const key of ['has spaces', 'slash/in/it', 'colon:too', 'x'.repeat(129)]) {
    test(`when the Idempotency-Key is "${key.length > 20 ? `${key.slice(0, 8)}… (${key.length} characters)` : key}", then 400 invalid_request saying what a key may be, and nothing is sent`, async () => {
      const before = calls.length;
      const answer = await post({ decision: 'reject', reason: 'duplicate' }, key);
      assert.equal(answer.status, 400, answer.text);
      const error = (JSON.parse(answer.text) as { error: { code: string; message: string } }).error;
      assert.equal(error.code, 'invalid_request');
      assert.match(error.message, /Idempotency-Key must be 1-128 characters of A-Z a-z 0-9 \. _ ~ -/);
      assert.equal(calls.length, before, 'the service was not called');
      assert.deepEqual(conformanceProblems({ method: 'POST', path, status: 400, contentType: answer.contentType, body: answer.text }), []);
    });
  }

  test('when a decision is resent unchanged, then it goes as the same Update; edited, it goes as a new one', async () => {
    const key = 'page-0b7c1e';
    const first = await post({ decision: 'approve', fields: invoice }, key);
    const again = await post({ decision: 'approve', fields: invoice }, key);
    const edited = await post({ decision: 'approve', fields: { ...invoice, totalAmount: 120 } }, key);
    assert.deepEqual([first.status, again.status, edited.status], [200, 200, 200], edited.text);
    const [a, b, c] = calls.slice(-3).map((call) => call.updateId);
    assert.equal(a, reviewUpdateId(key, approve()));
    assert.equal(b, a, 'a resend of the same decision is the same Update: it cannot count twice');
    assert.notEqual(c, a, 'an edited decision must not be deduplicated into the first one');
    assert.ok(c?.startsWith(`review:${key}:`));
  });

  test('when no Idempotency-Key is sent, then the route names no Update (Temporal gives it a fresh id)', async () => {
    const answer = await post({ decision: 'reject', reason: 'duplicate' });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(calls.at(-1)?.updateId, undefined);
  });

  test('when the body names another reviewer, then it is a 403 not_you naming the field, and nothing reaches the job', async () => {
    const before = calls.length;
    const answer = await post({ decision: 'reject', reason: 'duplicate', reviewer: 'someone-else' });
    assert.equal(answer.status, 403, answer.text);
    const error = (JSON.parse(answer.text) as { error: { code: string; details?: { field?: string } } }).error;
    assert.equal(error.code, 'not_you');
    assert.equal(error.details?.field, 'reviewer');
    assert.equal(calls.length, before, 'the service was not called');
  });

  test('when reviewers decide, then the decision carries the identity each credential proves, never a name of their choosing', async () => {
    const second = demo.reviewers[1] as (typeof demo.reviewers)[number];
    assert.equal((await post({ decision: 'reject', reason: 'duplicate' })).status, 200);
    assert.equal(calls.at(-1)?.review.reviewer, demo.reviewer.id);
    assert.equal((await post({ decision: 'reject', reason: 'duplicate', reviewer: second.id }, undefined, second.token)).status, 200);
    assert.equal(calls.at(-1)?.review.reviewer, second.id, 'naming yourself is allowed and changes nothing');
    assert.equal((await post({ decision: 'reject', reason: 'duplicate' }, undefined, demo.apiKey)).status, 200);
    assert.equal(calls.at(-1)?.review.reviewer, 'api-key', 'a program with the API key is recorded as such');
    assert.notEqual(demo.reviewer.id, second.id);
  });

  test('when a decision is taken, then the audit log has one line saying who, how they signed in, which job and what', async () => {
    const before = logLines.length;
    assert.equal((await post({ decision: 'reject', reason: 'duplicate' })).status, 200);
    const audits = logLines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.audit === 'review');
    assert.equal(audits.length, 1);
    assert.deepEqual(
      { tenantId: audits[0]?.tenantId, jobId: audits[0]?.jobId, reviewer: audits[0]?.reviewer, via: audits[0]?.via, decision: audits[0]?.decision },
      { tenantId: 'demo', jobId, reviewer: demo.reviewer.id, via: 'token', decision: 'reject' },
    );
    const refusedBefore = logLines.length;
    await post({ decision: 'reject', reason: 'duplicate', reviewer: 'someone-else' });
    assert.ok(!logLines.slice(refusedBefore).some((line) => line.includes('"audit":"review"')), 'a refused request records no decision');
  });

  test("when another tenant's reviewer sends a decision, then the job is looked up as that tenant's (whose it is not)", async () => {
    const acme = testTenant('acme');
    assert.equal((await post({ decision: 'reject', reason: 'duplicate' }, undefined, acme.reviewerToken)).status, 200);
    assert.equal(calls.at(-1)?.tenantId, 'acme', 'the ownership check runs for the tenant of the credential');
    assert.equal(calls.at(-1)?.review.reviewer, acme.reviewer.id);
    assert.equal(calls.filter((call) => call.review.reviewer === acme.reviewer.id && call.tenantId === 'demo').length, 0);
  });
});
