import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { ActivityExecuteInput } from '@temporalio/worker';
import { BudgetUnavailableError, ModelOutputInvalidError, ModelUnavailableError } from '../../common/errors';
import { answerRefusedAfter, answerRefusedBefore } from '../../lib/answer-refusals';
import { ActivityFailureInterceptor } from '../../workers/activity-failure-interceptor';

/** What the failure interceptor heartbeats when an attempt fails with `error`, given the previous attempt's details. */
async function heartbeatOnFailure(error: Error, heartbeatDetails?: unknown): Promise<unknown[]> {
  const env = new MockActivityEnvironment({ attempt: 2, ...(heartbeatDetails === undefined ? {} : { heartbeatDetails }) });
  const beats: unknown[] = [];
  env.on('heartbeat', (details: unknown) => beats.push(details));
  const input = { args: [], headers: {} } as unknown as ActivityExecuteInput;
  await env
    .run(() =>
      new ActivityFailureInterceptor().execute(input, async () => {
        throw error;
      }),
    )
    .catch(() => undefined);
  return beats;
}

describe('an answer found wrong, carried to the next attempt', () => {
  test('when an attempt fails because the answer broke its schema, then the flag is set, and it stays set through later failures of another kind', () => {
    assert.equal(answerRefusedAfter(new ModelOutputInvalidError('the summary broke its schema'), undefined), true);
    assert.equal(answerRefusedAfter(new ModelUnavailableError('529'), undefined), false, 'a provider error says nothing of the answer');
    assert.equal(answerRefusedAfter(new ModelUnavailableError('529'), { answerRefused: true }), true);
    assert.equal(answerRefusedBefore({ answerRefused: 'yes' }), false, 'details of another shape count as none');
  });

  test('when the failure interceptor sees an answer found wrong, then its heartbeat carries the flag beside the outage count', async () => {
    assert.deepEqual(await heartbeatOnFailure(new ModelOutputInvalidError('broke its schema')), [{ answerRefused: true }]);
    assert.deepEqual(await heartbeatOnFailure(new BudgetUnavailableError('no Redis'), { answerRefused: true }), [
      { budgetUnavailableAttempts: 1, answerRefused: true },
    ]);
    assert.deepEqual(await heartbeatOnFailure(new ModelUnavailableError('529')), [], 'nothing to carry: no heartbeat');
  });
});
