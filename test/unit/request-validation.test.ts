import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { TEST_OPERATOR, localTestConfig, testTenant } from '../support/test-credentials';
import type { AdminService } from '../../api/admin-service';
import type { JobsService } from '../../api/jobs-service';
import type { ListJobsFilter } from '../../api/jobs/list-jobs';
import { type RunningApi, startApiServer } from '../../api/server';
import type { SubmitReviewInput } from '../../common/messages';
import { createLogger } from '../../lib/logger';
import { conformanceProblems } from '../support/openapi-conformance';
import { memoryAuditTrail } from '../support/memory-audit';

const DEMO = testTenant('demo');

/** Stands in for the use cases behind the routes: records what each route handed over after checking the request. */
function recordingServices() {
  const handed = { reviews: [] as SubmitReviewInput[], lists: [] as ListJobsFilter[], replays: [] as Array<{ operator: string; dryRun: boolean }> };
  const jobs = {
    async review(_tenantId: string, jobId: string, review: SubmitReviewInput) {
      handed.reviews.push(review);
      return { jobId, type: 'invoice', status: 'processing', detailed: false, links: {} };
    },
    async list(_tenantId: string, filter: ListJobsFilter) {
      handed.lists.push(filter);
      return { jobs: [] };
    },
  } as unknown as JobsService;
  const admin = {
    async replay(jobId: string, request: { operator: string; dryRun: boolean }) {
      handed.replays.push({ operator: request.operator, dryRun: request.dryRun });
      return { jobId, action: 'would_retry', detail: 'would send retry' };
    },
  } as unknown as AdminService;
  return { jobs, admin, handed };
}

describe('request checks: the routes validate with the contract schemas and answer 400 naming the field', () => {
  const services = recordingServices();
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApiServer(
      { config: localTestConfig(), jobs: services.jobs, admin: services.admin, log: createLogger('test', 'silent'), ready: async () => true, audit: memoryAuditTrail() },
      { host: '127.0.0.1', port: 0 },
    );
  });
  afterAll(() => api?.close());

  const call = async (method: string, path: string, key: string, body?: unknown) => {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    assert.deepEqual(conformanceProblems({ method, path: path.split('?')[0] as string, status: response.status, contentType: response.headers.get('content-type'), body: text }), []);
    return { status: response.status, body: JSON.parse(text) as { error?: { code: string; message: string; details?: { field?: string } } } };
  };
  const review = (body: unknown) => call('POST', `/jobs/${encodeURIComponent('invoice:demo:k1')}/review`, DEMO.reviewerToken, body);

  for (const [when, body, field] of [
    ['the decision is neither approve nor reject', { decision: 'maybe' }, 'decision'],
    ['a rejection has a blank reason', { decision: 'reject', reason: '   ' }, 'reason'],
    ['an approval’s fields are not an object', { decision: 'approve', fields: 'all good' }, 'fields'],
    ['the body has a member no decision has', { decision: 'reject', reason: 'duplicate', urgent: true }, 'urgent'],
  ] as const) {
    test(`when ${when}, then 400 invalid_request with details.field "${field}", and nothing reaches the use case`, async () => {
      const before = services.handed.reviews.length;
      const answer = await review(body);
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error?.code, 'invalid_request');
      assert.equal(answer.body.error?.details?.field, field, answer.body.error?.message);
      assert.equal(services.handed.reviews.length, before);
    });
  }

  test('when an approval has no fields, then the use case gets it: whether fields are needed depends on the job’s type', async () => {
    const before = services.handed.reviews.length;
    const answer = await review({ decision: 'approve' });
    assert.equal(answer.status, 200);
    assert.equal(services.handed.reviews.length, before + 1);
  });

  test('when an approval’s fields break the invoice schema, then the use case gets them (it answers 409 or 422, knowing the job)', async () => {
    const answer = await review({ decision: 'approve', fields: { invoiceNumber: '' }, reviewer: `  ${DEMO.reviewer.id}  ` });
    assert.equal(answer.status, 200);
    assert.deepEqual(services.handed.reviews.at(-1), { decision: 'approve', fields: { invoiceNumber: '' }, reviewer: DEMO.reviewer.id });
  });

  test('when a rejection is valid, then its reason is trimmed and the reviewer is the signed-in one', async () => {
    assert.equal((await review({ decision: 'reject', reason: '  duplicate  ' })).status, 200);
    assert.deepEqual(services.handed.reviews.at(-1), { decision: 'reject', reason: 'duplicate', reviewer: DEMO.reviewer.id });
  });

  test('when GET /jobs has a bad status or limit, then 400 naming it; a good query reaches the use case typed', async () => {
    assert.equal((await call('GET', '/jobs?status=lost', DEMO.apiKey)).body.error?.details?.field, 'status');
    assert.equal((await call('GET', '/jobs?limit=0', DEMO.apiKey)).body.error?.details?.field, 'limit');
    assert.equal((await call('GET', '/jobs?limit=2.5', DEMO.apiKey)).body.error?.details?.field, 'limit');
    assert.equal((await call('GET', '/jobs?status=posted&limit=7', DEMO.apiKey)).status, 200);
    assert.deepEqual(services.handed.lists.at(-1), { status: 'posted', pageSize: 7 });
    assert.equal((await call('GET', '/jobs', DEMO.apiKey)).status, 200);
    assert.deepEqual(services.handed.lists.at(-1), { pageSize: 50 });
  });

  test('when a replay body has a wrong type, then 400 naming it; without a body the query alone is the request', async () => {
    const before = services.handed.replays.length;
    const refused = await call('POST', '/admin/jobs/invoice:demo:k1/replay', TEST_OPERATOR.token, { dryRun: 'yes' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error?.details?.field, 'dryRun');
    assert.equal(services.handed.replays.length, before);
    assert.equal((await call('POST', '/admin/jobs/invoice:demo:k1/replay?dryRun=true', TEST_OPERATOR.token)).status, 200);
    assert.deepEqual(services.handed.replays.at(-1), { operator: TEST_OPERATOR.id, dryRun: true });
  });
});
