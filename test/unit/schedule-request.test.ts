import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { ApiError } from '../../api/api-error';
import { checkRequest, requestValidators } from '../../api/request-validation';
import { scheduleSpecOf } from '../../api/schedules/schedule-spec';
import { parseJobId } from '../../common/job-id';

const refusal = (run: () => unknown): ApiError => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return error;
  }
  assert.fail('expected a refusal');
};

const valid = { scheduleId: 'nightly', type: 'tickets.digest', cron: '0 6 * * *', input: { jobId: 'tickets.digest:demo:k' } };

describe('the schedule request', () => {
  test('when the body has an unknown field, a bad id or a type that cannot be scheduled, then the 400 names the field', () => {
    for (const [body, field] of [
      [{ ...valid, extra: 1 }, 'extra'],
      [{ ...valid, scheduleId: 'has space' }, 'scheduleId'],
      [{ ...valid, type: 'invoice' }, 'type'],
      [{ ...valid, input: {} }, 'input'],
      [{ ...valid, every: '5s' }, 'every'],
    ] as const) {
      const error = refusal(() => checkRequest(requestValidators.scheduleRequest, body));
      assert.equal(error.status, 400);
      assert.equal(error.details?.field, field, JSON.stringify(body));
    }
    assert.deepEqual(checkRequest(requestValidators.scheduleRequest, valid), valid);
  });

  test('when a cron has five fields or is a macro, then it becomes the spec in the time zone given, UTC by default', () => {
    assert.deepEqual(scheduleSpecOf({ cron: ' 0  6 * * MON-FRI ', timezone: 'Europe/Berlin' }), {
      spec: { cronExpressions: ['0 6 * * MON-FRI'], timezone: 'Europe/Berlin' },
      timezone: 'Europe/Berlin',
    });
    assert.equal(scheduleSpecOf({ cron: '@Daily' }).spec.cronExpressions?.[0], '@daily');
    assert.equal(scheduleSpecOf({ cron: '*/15 * * * *' }).timezone, 'UTC');
  });

  test('when an interval is given, then it becomes minutes in milliseconds', () => {
    assert.deepEqual(scheduleSpecOf({ every: '6h' }).spec.intervals, [{ every: 6 * 60 * 60_000 }]);
    assert.deepEqual(scheduleSpecOf({ every: '1d' }).spec.intervals, [{ every: 24 * 60 * 60_000 }]);
  });

  test('when the timing is malformed, then the 400 names cron, every or timezone', () => {
    for (const [request, field] of [
      [{ cron: '0 6 * *' }, 'cron'],
      [{ cron: 'at six' }, 'cron'],
      [{ cron: '0 6 * * * 2027 extra' }, 'cron'],
      [{}, 'cron'],
      [{ cron: '0 6 * * *', every: '1d' }, 'every'],
      [{ every: '400d' }, 'every'],
      [{ cron: '0 6 * * *', timezone: 'Mars/Olympus' }, 'timezone'],
    ] as const) {
      const error = refusal(() => scheduleSpecOf(request));
      assert.equal(error.details?.field, field, JSON.stringify(request));
    }
  });
});

describe('job ids of scheduled runs', () => {
  test('when Temporal appends the scheduled time to the action id, then the id still names its type, tenant and schedule', () => {
    assert.deepEqual(parseJobId('tickets.digest:demo:schedule.nightly-2026-12-03T06:00:00Z'), {
      jobType: 'tickets.digest',
      tenantId: 'demo',
      idempotencyKey: 'schedule.nightly',
      scheduledAt: '2026-12-03T06:00:00Z',
    });
    assert.deepEqual(parseJobId('invoice:demo:key-1'), { jobType: 'invoice', tenantId: 'demo', idempotencyKey: 'key-1' });
  });

  test('when colons appear anywhere else, then the id is no job id', () => {
    for (const id of ['invoice:demo:a:b', 'tickets.digest:demo:nightly-2026-12-03T06:00:00Z', 'tickets.digest:demo:schedule.x-2026-12-03T06:00', 'a:Demo:k']) {
      assert.equal(parseJobId(id), undefined, id);
    }
  });
});
