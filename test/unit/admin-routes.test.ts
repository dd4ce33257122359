import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { Registry } from 'prom-client';
import type { AdminService } from '../../api/admin-service';
import type { JobsService } from '../../api/jobs-service';
import { type RunningApi, startApiServer } from '../../api/server';
import { createLogger } from '../../lib/logger';
import { createApiMetrics } from '../../lib/metrics-api';
import { type DeadLetterFilter, InvalidFilterError } from '../../ops/dead-letter-query';
import type { ReplayOutcome } from '../../ops/replay';
import { TEST_OPERATOR, localTestConfig, testTenant } from '../support/test-credentials';
import { memoryAuditTrail } from '../support/memory-audit';
import { PLATFORM_TRAIL } from '../../common/api-contract/audit';
import { recordKeyRotation } from '../../ops/codec-key-audit';
import { rotateCodecKeys } from '../../ops/codec-key-rotation';

/** Stands in for Temporal behind the admin service: records what the routes asked for, answers as told. */
function recordingAdmin() {
  const asked: {
    filters: Array<{ filter: DeadLetterFilter; limit: number }>;
    replays: Array<{ jobId: string; dryRun: boolean; operator: string }>;
    abandons: Array<{ jobId: string; operator: string }>;
    spendCapsRaised: Array<{ tenantId: string; operator: string }>;
    redeliveries: Array<{ deliveryId: string; operator: string }>;
  } = {
    filters: [],
    replays: [],
    abandons: [],
    spendCapsRaised: [],
    redeliveries: [],
  };
  let nextOutcome: Omit<ReplayOutcome, 'jobId'> = { action: 'retried', detail: 'retry sent', step: 'extractInvoiceFields' };
  const service: AdminService = {
    async deadLetters(filter, limit) {
      if (filter.errorType === 'Bad!') throw new InvalidFilterError('errorType must be a type name');
      asked.filters.push({ filter, limit });
      return { query: 'q', deadLetters: [], truncated: false };
    },
    async replay(jobId, request) {
      asked.replays.push({ jobId, dryRun: request.dryRun, operator: request.operator });
      return { jobId, ...nextOutcome };
    },
    async abandon(jobId, by) {
      asked.abandons.push({ jobId, operator: by.operator });
      if (jobId.endsWith('running')) return { jobId, action: 'refused', detail: 'the job is processing, not a dead letter' };
      return { jobId, action: 'abandoned', detail: 'abandoned' };
    },
    async spendCapRaised(tenantId, operator) {
      asked.spendCapsRaised.push({ tenantId, operator });
      return { woken: 2, query: 'q' };
    },
    async givenUpWebhooks(limit) {
      return { query: 'q', deliveries: [{ deliveryId: 'webhook:invoice:demo:a:evt_1_2', runId: 'r', status: 'FAILED' }].slice(0, limit), truncated: false };
    },
    async redeliverWebhook(deliveryId, operator) {
      asked.redeliveries.push({ deliveryId, operator });
      if (deliveryId.endsWith('unknown')) return { deliveryId, action: 'not_found', detail: 'no such webhook delivery' };
      if (deliveryId.endsWith('delivered')) return { deliveryId, action: 'refused', detail: 'closed as completed; nothing to redeliver' };
      return { deliveryId, action: 'redelivered', runId: 'new-run', detail: 'delivering the same event again' };
    },
  };
  return { service, asked, answerNext: (outcome: Omit<ReplayOutcome, 'jobId'>) => (nextOutcome = outcome) };
}

describe('admin routes', () => {
  const admin = recordingAdmin();
  const audit = memoryAuditTrail();
  const metrics = createApiMetrics(new Registry());
  let api: RunningApi;
  let locked: RunningApi;
  beforeAll(async () => {
    const config = localTestConfig();
    const deps = { config, jobs: {} as unknown as JobsService, log: createLogger('test', 'silent'), ready: async () => true, audit };
    api = await startApiServer({ ...deps, admin: admin.service, metrics }, { host: '127.0.0.1', port: 0 });
    locked = await startApiServer(
      { ...deps, config: { ...config, people: { operators: [] } }, admin: admin.service },
      { host: '127.0.0.1', port: 0 },
    );
  });
  afterAll(async () => {
    await api?.close();
    await locked?.close();
  });

  const call = async (
    path: string,
    options: { key?: string | null; method?: string; body?: unknown; base?: RunningApi; headers?: Record<string, string> } = {},
  ) => {
    const key = options.key === undefined ? TEST_OPERATOR.token : options.key;
    const response = await fetch(`${(options.base ?? api).url}${path}`, {
      method: options.method ?? 'GET',
      headers: {
        ...options.headers,
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(options.body ? { 'content-type': 'application/json' } : {}),
      },
      ...(options.body ? { body: JSON.stringify(options.body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: { code: string; details?: Record<string, unknown> } } };
  };

  test('when no operator token, a tenant key or a reviewer token is sent, then the answer is 401', async () => {
    const demo = testTenant('demo');
    assert.equal((await call('/admin/dead-letters', { key: null })).status, 401);
    assert.equal((await call('/admin/dead-letters', { key: demo.apiKey })).status, 401);
    assert.equal((await call('/admin/dead-letters', { key: demo.reviewerToken })).status, 401);
    assert.equal((await call('/admin/jobs/x/replay', { key: demo.apiKey, method: 'POST' })).status, 401);
    assert.equal((await call('/admin/dead-letters', { key: 'admin-key' })).status, 401, 'the old shared demo key is nobody');
    assert.equal(admin.asked.replays.length, 0, 'nothing reached the service');
  });

  test('when no operator is configured, then every token is refused', async () => {
    const answer = await call('/admin/dead-letters', { base: locked });
    assert.equal(answer.status, 401);
    assert.match(JSON.stringify(answer.body), /SLOWLANE_OPERATORS/);
  });

  test('when the list is filtered by step, error type and age, then the service gets exactly that filter', async () => {
    const answer = await call('/admin/dead-letters?step=extractInvoiceFields&errorType=ModelUnavailableError&olderThan=2h&tenant=acme&limit=5');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(admin.asked.filters.at(-1), {
      filter: { step: 'extractInvoiceFields', errorType: 'ModelUnavailableError', tenantId: 'acme', olderThanMs: 7_200_000 },
      limit: 5,
    });
  });

  test('when a filter value is malformed, then it is a 400 naming it', async () => {
    assert.equal((await call('/admin/dead-letters?olderThan=soon')).status, 400);
    assert.equal((await call('/admin/dead-letters?limit=0')).status, 400);
    const refused = await call('/admin/dead-letters?errorType=Bad!');
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error?.code, 'invalid_request');
  });

  test('when a replay is refused or the job is unknown, then 409 not_replayable or 404, with the reason', async () => {
    admin.answerNext({ action: 'refused', detail: 'still running (processing at classifyDocument)' });
    const refused = await call('/admin/jobs/invoice:demo:a/replay', { method: 'POST' });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error?.code, 'not_replayable');
    assert.equal(refused.body.error?.details?.detail, 'still running (processing at classifyDocument)');
    admin.answerNext({ action: 'not_found', detail: 'no such job' });
    assert.equal((await call('/admin/jobs/invoice:demo:b/replay', { method: 'POST' })).status, 404);
  });

  test('when a dry run is asked for, then the service is told so and the signed-in operator is recorded', async () => {
    admin.answerNext({ action: 'would_reset', detail: 'would reset', step: 'extractInvoiceFields', resetEventId: 11 });
    const answer = await call('/admin/jobs/invoice:demo:c/replay', { method: 'POST', body: { dryRun: true } });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.action, 'would_reset');
    assert.deepEqual(admin.asked.replays.at(-1), { jobId: 'invoice:demo:c', dryRun: true, operator: TEST_OPERATOR.id });
  });

  test('when the body names another operator, then it is a 403 not_you and nothing is replayed', async () => {
    const before = admin.asked.replays.length;
    const answer = await call('/admin/jobs/invoice:demo:c/replay', { method: 'POST', body: { operator: 'rita' } });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error?.code, 'not_you');
    assert.equal(answer.body.error?.details?.field, 'operator');
    assert.equal(admin.asked.replays.length, before);
    const same = await call('/admin/jobs/invoice:demo:c/replay', { method: 'POST', body: { operator: TEST_OPERATOR.id, dryRun: true } });
    assert.equal(same.status, 200, 'naming yourself is allowed');
  });

  test('when requests are measured, then they count under their route pattern, not the job id', async () => {
    await call('/admin/jobs/invoice:demo:d/replay', { method: 'POST' });
    const { values } = await metrics.requests.get();
    assert.ok(values.some((v) => v.labels.route === '/admin/jobs/:id/replay' && v.labels.method === 'POST'));
    assert.ok(!values.some((v) => String(v.labels.route).includes('invoice:demo')), 'ids never become label values');
  });

  test('when an operator says a tenant\'s spend cap was raised, then its waiting jobs are woken; an unknown tenant is a 404', async () => {
    const woken = await call('/admin/tenants/demo/spend-cap-raised', { method: 'POST' });
    assert.equal(woken.status, 200);
    assert.deepEqual(woken.body, { tenantId: 'demo', woken: 2, query: 'q' });
    assert.deepEqual(admin.asked.spendCapsRaised, [{ tenantId: 'demo', operator: TEST_OPERATOR.id }]);
    assert.equal((await call('/admin/tenants/nobody/spend-cap-raised', { method: 'POST' })).status, 404);
    assert.equal((await call('/admin/tenants/demo/spend-cap-raised', { method: 'POST', key: testTenant('demo').apiKey })).status, 401);
    assert.equal(admin.asked.spendCapsRaised.length, 1, 'neither reached the service');
  });

  test('when an operator redelivers a given-up webhook, then the service is asked with the delivery id and the operator', async () => {
    const listed = await call('/admin/webhooks/given-up?limit=1');
    assert.equal(listed.status, 200);
    assert.equal((listed.body.deliveries as unknown[]).length, 1);
    const deliveryId = 'webhook:invoice:demo:a:evt_1_2';
    const answer = await call(`/admin/webhooks/${encodeURIComponent(deliveryId)}/redeliver`, { method: 'POST' });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body, { deliveryId, action: 'redelivered', runId: 'new-run', detail: 'delivering the same event again' });
    assert.deepEqual(admin.asked.redeliveries, [{ deliveryId, operator: TEST_OPERATOR.id }]);
  });

  test('when the delivery is unknown or was delivered, then 404 or 409 not_redeliverable; a tenant key is a 401', async () => {
    assert.equal((await call('/admin/webhooks/webhook:unknown/redeliver', { method: 'POST' })).status, 404);
    const refused = await call(`/admin/webhooks/${encodeURIComponent('webhook:invoice:demo:b:evt_delivered')}/redeliver`, { method: 'POST' });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error?.code, 'not_redeliverable');
    const before = admin.asked.redeliveries.length;
    assert.equal((await call('/admin/webhooks/webhook:x/redeliver', { method: 'POST', key: testTenant('demo').apiKey })).status, 401);
    assert.equal((await call('/admin/webhooks/given-up?limit=0')).status, 400);
    assert.equal(admin.asked.redeliveries.length, before, 'the tenant key reached nothing');
  });

  /** The records the routes wrote for one job, read back through the operators' route. */
  const recordsOf = async (jobId: string) => {
    const answer = await call(`/admin/audit?tenant=demo&jobId=${encodeURIComponent(jobId)}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.records as Array<Record<string, unknown>>;
  };

  test('when an operator replays a job, then one record says who, which job and how it ended; the same Idempotency-Key again adds none', async () => {
    admin.answerNext({ action: 'retried', detail: 'retry sent', step: 'extractInvoiceFields' });
    const headers = { 'idempotency-key': 'replay-once', 'x-request-id': 'req-replay-1' };
    assert.equal((await call('/admin/jobs/invoice:demo:audited/replay', { method: 'POST', headers })).status, 200);
    assert.equal((await call('/admin/jobs/invoice:demo:audited/replay', { method: 'POST', headers })).status, 200);
    const records = await recordsOf('invoice:demo:audited');
    assert.equal(records.length, 1);
    assert.deepEqual(
      { action: records[0]?.action, tenantId: records[0]?.tenantId, actor: records[0]?.actor, requestId: records[0]?.requestId, outcome: records[0]?.outcome },
      { action: 'job.replay', tenantId: 'demo', actor: { kind: 'operator', id: TEST_OPERATOR.id, via: 'token' }, requestId: 'req-replay-1', outcome: 'done' },
    );
  });

  test('when keys were rotated, then an operator reads the record with tenant=_platform, and a tenant name that is neither is a 400', async () => {
    const rotation = rotateCodecKeys({ keysJson: JSON.stringify({ k1: Buffer.alloc(32, 3).toString('base64') }), currentKeyId: undefined, newKeyId: 'k-admin-route' });
    await (await recordKeyRotation(audit, rotation, 'ops-carol')).finish('done');
    const answer = await call(`/admin/audit?tenant=${PLATFORM_TRAIL}&action=codec-key.rotate`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const records = answer.body.records as Array<Record<string, unknown>>;
    assert.deepEqual(
      records.map((record) => [record.actor, (record.details as Record<string, unknown>).newKeyId, record.outcome]),
      [[{ kind: 'operator', id: 'ops-carol', via: 'cli' }, 'k-admin-route', 'done']],
    );
    assert.equal((await call('/admin/audit?tenant=_nobody')).status, 400);
    assert.equal((await call(`/admin/audit?tenant=${PLATFORM_TRAIL}`, { key: testTenant('demo').apiKey })).status, 401, 'a tenant key reads no platform record');
  });

  test('when a replay is refused, then its record says refused with the code; a dry run is not recorded', async () => {
    admin.answerNext({ action: 'refused', detail: 'finished as posted; there is nothing to replay' });
    assert.equal((await call('/admin/jobs/invoice:demo:finished/replay', { method: 'POST' })).status, 409);
    const records = await recordsOf('invoice:demo:finished');
    assert.deepEqual(records.map((record) => [record.outcome, record.outcomeCode]), [['refused', 'not_replayable']]);
    admin.answerNext({ action: 'would_retry', detail: 'would retry' });
    assert.equal((await call('/admin/jobs/invoice:demo:dry/replay?dryRun=true', { method: 'POST' })).status, 200);
    assert.deepEqual(await recordsOf('invoice:demo:dry'), []);
  });

  test('when the audit trail cannot be written, then the action is refused with 503 audit_unavailable and not taken', async () => {
    const before = admin.asked.abandons.length;
    audit.store.failNextPut((key) => key.startsWith('audit/demo/'), new Error('S3 is away (injected)'));
    const answer = await call('/admin/jobs/invoice:demo:parked/abandon', { method: 'POST', body: { reason: 'customer sent a new copy' } });
    assert.equal(answer.status, 503);
    assert.equal(answer.body.error?.code, 'audit_unavailable');
    assert.equal(admin.asked.abandons.length, before, 'the job was not abandoned');
    const retried = await call('/admin/jobs/invoice:demo:parked/abandon', { method: 'POST', body: { reason: 'customer sent a new copy' } });
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    assert.deepEqual(admin.asked.abandons.at(-1), { jobId: 'invoice:demo:parked', operator: TEST_OPERATOR.id });
    const records = await recordsOf('invoice:demo:parked');
    assert.deepEqual(records.map((record) => [record.action, record.outcome]), [['job.abandon', 'done']]);
    assert.ok(!JSON.stringify(records).includes('new copy'), 'the free-text reason stays out of the trail');
  });

  test('when an abandon is refused or names no tenant\'s job, then 409 not_abandonable or 404, and an unknown tenant gets no records', async () => {
    const refused = await call('/admin/jobs/invoice:demo:running/abandon', { method: 'POST' });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error?.code, 'not_abandonable');
    assert.equal((await call('/admin/jobs/invoice:nobody:x/abandon', { method: 'POST' })).status, 404);
    assert.equal((await call('/admin/jobs/not-a-job/abandon', { method: 'POST' })).status, 404);
    assert.ok(![...audit.store.objects.keys()].some((key) => key.startsWith('audit/nobody/')));
  });

  test('when the operators\' audit route is asked without a tenant, then 400; an unknown tenant 404; a tenant key is a 401', async () => {
    assert.equal((await call('/admin/audit')).status, 400);
    assert.equal((await call('/admin/audit?tenant=Not_A_Tenant')).status, 400);
    assert.equal((await call('/admin/audit?tenant=nobody')).status, 404);
    assert.equal((await call('/admin/audit?tenant=demo', { key: testTenant('demo').apiKey })).status, 401);
  });
});
