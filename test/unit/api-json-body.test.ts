import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { TEST_OPERATOR, localTestConfig, testTenant } from '../support/test-credentials';
import type { AdminService } from '../../api/admin-service';
import type { JobsService } from '../../api/jobs-service';
import { type RunningApi, startApiServer } from '../../api/server';
import { createLogger } from '../../lib/logger';
import { conformanceProblems } from '../support/openapi-conformance';
import { memoryAuditTrail } from '../support/memory-audit';

/**
 * JSON bodies the API cannot read are refused before any route runs; each refusal is the client's to fix, so it
 * has a 4xx status, a stable code and is an answer the OpenAPI document lists.
 */
describe('JSON request bodies the API cannot read', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startApiServer(
      {
        config: localTestConfig(),
        jobs: {} as unknown as JobsService,
        admin: {} as unknown as AdminService,
        log: createLogger('test', 'silent'),
        ready: async () => true, audit: memoryAuditTrail(),
      },
      { host: '127.0.0.1', port: 0 },
    );
  });
  afterAll(() => api?.close());

  const cases: Array<{ when: string; headers: Record<string, string>; body: string; status: number; code: string }> = [
    { when: 'the JSON is malformed', headers: {}, body: '{"decision":', status: 400, code: 'invalid_request' },
    { when: 'the charset is not UTF-8', headers: { 'content-type': 'application/json; charset=latin1' }, body: '{}', status: 415, code: 'unsupported_media_type' },
    { when: 'the Content-Encoding is unknown', headers: { 'content-encoding': 'compress' }, body: '{}', status: 415, code: 'unsupported_media_type' },
    {
      when: 'the JSON nests 20,000 levels deep, with an Idempotency-Key',
      headers: { 'idempotency-key': 'deep-body' },
      body: `{"decision":"approve","fields":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`,
      status: 400,
      code: 'invalid_request',
    },
    { when: 'the body is over 1 MB', headers: {}, body: JSON.stringify({ reason: 'x'.repeat(1024 * 1024) }), status: 413, code: 'payload_too_large' },
  ];
  for (const path of ['/jobs/invoice%3Ademo%3Ak/review', '/admin/jobs/invoice%3Ademo%3Ak/replay']) {
    for (const { when, headers, body, status, code } of cases) {
      test(`when ${when} on POST ${path}, then ${status} ${code}, as documented`, async () => {
        const key = path.startsWith('/admin') ? TEST_OPERATOR.token : testTenant('demo').reviewerToken;
        const response = await fetch(`${api.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
          body,
        });
        const text = await response.text();
        assert.equal(response.status, status, text);
        assert.equal((JSON.parse(text) as { error: { code: string } }).error.code, code);
        const contentType = response.headers.get('content-type');
        assert.deepEqual(conformanceProblems({ method: 'POST', path, status, contentType, body: text }), []);
      });
    }
  }
});
