import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { dayBounds, jobsOfDayQueries } from '../../ops/spend-reconcile';

describe('the day a reconciliation reads', () => {
  test('when a day is given, then its jobs are those started before it ended and running or closed after it began', () => {
    const [running, closed] = jobsOfDayQueries('acme', '2026-12-31');
    assert.match(running ?? '', /^TenantId = 'acme' AND JobType IN \('[^)]+'\) AND StartTime < '2027-01-01T00:00:00\.000Z' AND ExecutionStatus = 'Running'$/);
    assert.match(closed ?? '', /StartTime < '2027-01-01T00:00:00\.000Z' AND CloseTime >= '2026-12-31T00:00:00\.000Z'$/);
  });

  test('when the tenant or the day is not one, then nothing is queried', () => {
    assert.throws(() => jobsOfDayQueries("acme' OR TenantId != '", '2026-12-31'), /not a tenant id/);
    assert.throws(() => dayBounds('2026-13-01'), /YYYY-MM-DD/);
    assert.throws(() => dayBounds('2026-02-30'), /YYYY-MM-DD/);
    assert.throws(() => dayBounds('yesterday'), /YYYY-MM-DD/);
  });
});
