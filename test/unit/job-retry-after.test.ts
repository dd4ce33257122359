import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { localTestConfig, testTenant } from '../support/test-credentials';
import type { AdminService } from '../../api/admin-service';
import type { Job } from '../../common/api-contract/job';
import type { JobsService } from '../../api/jobs-service';
import { type RunningApi, startApiServer } from '../../api/server';
import { JOB_STATUSES, type JobStatus } from '../../common/job';
import { createLogger } from '../../lib/logger';
import { conformanceProblems } from '../support/openapi-conformance';
import { memoryAuditTrail } from '../support/memory-audit';

const DEMO = testTenant('demo');

/** GET /jobs/:id tells a polling client how long to wait: seconds while work runs, a minute while a person must act. */
describe('GET /jobs/:id Retry-After by status', () => {
  let api: RunningApi;
  let status: JobStatus = 'queued';
  beforeAll(async () => {
    // Only the route is under test: the service answers a job in whatever status the test sets.
    const jobs = {
      get: async (_tenantId: string, jobId: string): Promise<Job> =>
        ({ jobId, type: 'invoice', status, detailed: false, links: {} }) as unknown as Job,
    } as unknown as JobsService;
    api = await startApiServer(
      { config: localTestConfig(), jobs, admin: {} as unknown as AdminService, log: createLogger('test', 'silent'), ready: async () => true, audit: memoryAuditTrail() },
      { host: '127.0.0.1', port: 0 },
    );
  });
  afterAll(() => api?.close());

  const expected: Record<JobStatus, string | null> = {
    queued: '2',
    processing: '2',
    awaiting_review: '60',
    dead_letter: '60',
    budget_wait: '60',
    posted: null,
    completed: null,
    rejected: null,
    review_expired: null,
    failed: null,
    cancelled: null,
  };

  test('every status has an expectation here', () => {
    assert.deepEqual(Object.keys(expected).sort(), [...JOB_STATUSES].sort());
  });

  for (const [jobStatus, retryAfter] of Object.entries(expected) as Array<[JobStatus, string | null]>) {
    test(`when the job is ${jobStatus}, then Retry-After is ${retryAfter ?? 'absent'}`, async () => {
      status = jobStatus;
      const path = `/jobs/${encodeURIComponent('invoice:demo:k1')}`;
      const response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${DEMO.apiKey}` } });
      const text = await response.text();
      assert.equal(response.status, 200, text);
      assert.equal(response.headers.get('retry-after'), retryAfter);
      assert.deepEqual(conformanceProblems({ method: 'GET', path, status: 200, contentType: response.headers.get('content-type'), body: text }), []);
    });
  }
});
