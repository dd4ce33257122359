import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { JobsService } from '../../api/jobs-service';
import { type RunningApi, startApiServer } from '../../api/server';
import { createLogger } from '../../lib/logger';
import { sampleOrder } from '../support/fake-activities';
import { localTestConfig, TEST_SECRETS } from '../support/test-credentials';
import { memoryAuditTrail } from '../support/memory-audit';

describe('POST /jobs with a callbackUrl in production', () => {
  const submitted: Array<{ callbackUrl?: string }> = [];
  const jobs = {
    submitJson: async (request: { callbackUrl?: string; idempotencyKey: string }) => {
      submitted.push({ ...(request.callbackUrl ? { callbackUrl: request.callbackUrl } : {}) });
      const jobId = `order.score:demo:${request.idempotencyKey}`;
      return { job: { jobId, status: 'queued', links: { self: `/jobs/${jobId}` } }, replayed: false };
    },
  } as unknown as JobsService;
  let api: RunningApi;
  beforeAll(async () => {
    const config = { ...localTestConfig(), deployment: 'production' as const };
    api = await startApiServer({ config, jobs, log: createLogger('test', 'silent'), ready: async () => true, audit: memoryAuditTrail() }, { host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await api?.close();
  });

  const submit = (callbackUrl: string) =>
    fetch(`${api.url}/jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_SECRETS.tenants[0]?.apiKey ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'order.score', input: sampleOrder, callbackUrl }),
    });

  test('when the callback URL is http, then the answer is 400 invalid_request naming callbackUrl, and no job starts', async () => {
    const response = await submit('http://hooks.example.com/slowlane');
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { code: string; message: string; details?: { field?: string } } };
    assert.equal(body.error.code, 'invalid_request');
    assert.equal(body.error.details?.field, 'callbackUrl');
    assert.match(body.error.message, /field "callbackUrl" must use https/);
    assert.deepEqual(submitted, []);
  });

  test('when the callback URL is https, then the job is submitted with it', async () => {
    const response = await submit('https://hooks.example.com/slowlane');
    assert.equal(response.status, 202, await response.clone().text());
    assert.deepEqual(submitted, [{ callbackUrl: 'https://hooks.example.com/slowlane' }]);
  });
});
