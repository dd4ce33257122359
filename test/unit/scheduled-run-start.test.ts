import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { scheduledRunStart } from '../../api/schedules/scheduled-run-start';
import type { JobStart } from '../../common/job';
import { ticketsDigestJobType } from '../../common/job-types/tickets-digest/definition';
import { localTestConfig } from '../support/test-credentials';

/** A schedule's action starts an ordinary job: a bulk digest's runs may take the batch lane as a submitted job's do. */
describe('a schedule’s run start and the batch lane', () => {
  const run = (priority: 'bulk' | 'interactive', env: Record<string, string> = {}) =>
    scheduledRunStart(localTestConfig(env), ticketsDigestJobType, {
      tenantId: 'test',
      priority,
      scheduleId: 'nightly',
      document: { bucket: 'slowlane', key: 'inputs/test/abc', sha256: 'abc', contentType: 'text/plain', sizeBytes: 10, fileName: 'tickets.jsonl' },
    }).args[0] as Pick<JobStart, 'batchLane'>;

  test('when the lane is on, then a bulk schedule’s runs carry the lane’s terms and an interactive one’s do not', () => {
    const config = localTestConfig({ BATCH_LANE: 'true' });
    assert.deepEqual(run('bulk', { BATCH_LANE: 'true' }).batchLane, {
      deadlineMarginMs: config.batchLane.deadlineMarginMs,
      maxWaitMs: config.batchLane.maxWaitMs,
    });
    assert.equal(run('interactive', { BATCH_LANE: 'true' }).batchLane, undefined);
  });

  test('when the lane is off, then a bulk schedule’s runs take the live path', () => {
    assert.equal(run('bulk', { BATCH_LANE: 'false' }).batchLane, undefined);
  });
});
