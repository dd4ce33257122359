import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { AuditUnavailableError, createAuditTrail, type AuditEntry } from '../../lib/audit/audit-trail';
import { createLogger } from '../../lib/logger';
import { memoryStore } from '../support/memory-store';

/** A clock the test moves: one second per reading, from a fixed start. */
function steppingClock(startMs = Date.parse('2026-12-06T08:00:00Z')) {
  let now = startMs;
  return () => new Date((now += 1_000));
}

const entry = (overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  action: 'review.reject',
  tenantId: 'demo',
  jobId: 'invoice:demo:a',
  actor: { kind: 'reviewer', id: 'ada@demo.example', via: 'token' },
  requestId: 'req-1',
  idempotencyKey: 'key-1',
  ...overrides,
});

describe('the audit trail in the bucket', () => {
  test('when the record is written but the API dies before the record itself, then the retry completes the same record at the first time', async () => {
    const store = memoryStore();
    const trail = createAuditTrail(store, createLogger('test', 'silent'), steppingClock());
    store.failNextPut((key) => key.includes('/records/'), new Error('the API died here (injected)'));
    await assert.rejects(trail.begin(entry()), AuditUnavailableError);
    const handle = await trail.begin(entry({ requestId: 'req-2' }));
    await handle.finish('done');
    const { records } = await trail.list('demo', {}, { limit: 10 });
    assert.equal(records.length, 1);
    assert.equal(records[0]?.at, '2026-12-06T08:00:01.000Z', 'the time the claim was made');
    assert.equal(records[0]?.requestId, 'req-2', 'the attempt that wrote the record');
    assert.equal(records[0]?.outcome, 'done');
  });

  test('when the outcome cannot be written, then the action stands and the record reads pending', async () => {
    const store = memoryStore();
    const trail = createAuditTrail(store, createLogger('test', 'silent'), steppingClock());
    const handle = await trail.begin(entry());
    store.failNextPut((key) => key.includes('/outcomes/'));
    await handle.finish('done');
    assert.equal((await trail.list('demo', {}, { limit: 10 })).records[0]?.outcome, 'pending');
  });

  test('when a retried attempt ends differently, then the last outcome shows, on the one record', async () => {
    const store = memoryStore();
    const trail = createAuditTrail(store, createLogger('test', 'silent'), steppingClock());
    await (await trail.begin(entry())).finish('failed', 'temporal_unavailable');
    await (await trail.begin(entry())).finish('done');
    const { records } = await trail.list('demo', {}, { limit: 10 });
    assert.deepEqual(records.map((record) => [record.outcome, record.outcomeCode ?? null]), [['done', null]]);
  });

  test('when records are paged with a time range and filters, then each comes once, newest first, only within the range', async () => {
    const store = memoryStore();
    const trail = createAuditTrail(store, createLogger('test', 'silent'), steppingClock());
    for (let index = 0; index < 7; index++) {
      const action = index % 2 === 0 ? 'review.reject' : 'job.erase';
      await (await trail.begin(entry({ action, jobId: `invoice:demo:${index}`, idempotencyKey: `k${index}` }))).finish('done');
    }
    await (await trail.begin(entry({ tenantId: 'acme', jobId: 'invoice:acme:x', idempotencyKey: 'acme' }))).finish('done');
    const all = await trail.list('demo', {}, { limit: 100 });
    assert.deepEqual(all.records.map((record) => record.jobId), [6, 5, 4, 3, 2, 1, 0].map((index) => `invoice:demo:${index}`));
    assert.equal(all.after, undefined);

    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = await trail.list('demo', { action: 'review.reject' }, { limit: 2, ...(after ? { after } : {}) });
      seen.push(...page.records.map((record) => record.jobId ?? ''));
      after = page.after;
    } while (after);
    assert.deepEqual(seen, ['invoice:demo:6', 'invoice:demo:4', 'invoice:demo:2', 'invoice:demo:0']);

    const times = all.records.map((record) => Date.parse(record.at));
    const within = await trail.list('demo', { fromMs: times[4], toMs: times[1] }, { limit: 100 });
    assert.deepEqual(within.records.map((record) => record.jobId), [5, 4, 3, 2].map((index) => `invoice:demo:${index}`));
    assert.deepEqual((await trail.list('acme', {}, { limit: 100 })).records.map((record) => record.jobId), ['invoice:acme:x']);
  });
});
