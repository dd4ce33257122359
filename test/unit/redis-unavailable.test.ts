import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { ApplicationFailure } from '@temporalio/common';
import { Redis } from 'ioredis';
import { MaxRetriesPerRequestError } from 'ioredis/built/errors';
import { BudgetUnavailableError, NON_RETRYABLE_ERROR_TYPES, waitsForBudget } from '../../common/errors';
import { RedisBudget } from '../../gateway/budget/redis-budget';
import { DEFAULT_POOL } from '../../gateway/budget/token-budget';
import { RedisSpendStore } from '../../gateway/spend/redis-spend-store';
import { toApplicationFailure } from '../../lib/failures';
import { outageAttemptsAfter } from '../../lib/outage-attempts';
import { budgetUnavailableOr, isRedisUnavailable } from '../../lib/redis-unavailable';
import { freePort } from '../../local/stack/ports';

const SETTINGS = {
  pools: { [DEFAULT_POOL]: { inputTokensPerMinute: 60_000, outputTokensPerMinute: 60_000, requestsPerMinute: 600 } },
  interactiveShare: 0.25,
};

/** A client of a port nobody listens on, as ioredis sees a Redis that was killed: commands fail after their retries. */
async function clientOfDeadRedis(): Promise<Redis> {
  const redis = new Redis(`redis://127.0.0.1:${await freePort()}`, { maxRetriesPerRequest: 1, retryStrategy: () => 10 });
  redis.on('error', () => undefined);
  return redis;
}

describe('Redis outages become BudgetUnavailableError', () => {
  test('when ioredis gives up on a command or the connection is gone, then it is an outage', () => {
    assert.ok(isRedisUnavailable(new MaxRetriesPerRequestError(2)));
    assert.ok(isRedisUnavailable(new Error('Connection is closed.')));
    assert.ok(isRedisUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' })));
    assert.ok(isRedisUnavailable(new Error('LOADING Redis is loading the dataset in memory')));
    assert.ok(isRedisUnavailable(new Error("Stream isn't writeable and enableOfflineQueue options is false")));
  });

  test('when Redis answers with a real error, then it is not an outage and stays as it was', () => {
    const scriptBug = new Error('ERR user_script:12: attempt to compare nil with number');
    assert.ok(!isRedisUnavailable(scriptBug));
    assert.ok(!isRedisUnavailable(new Error('WRONGTYPE Operation against a key holding the wrong kind of value')));
    assert.ok(!isRedisUnavailable('ECONNREFUSED'));
    assert.equal(budgetUnavailableOr(scriptBug, 'token budget'), scriptBug);
  });

  test('when an outage is mapped, then the typed error is retryable, keeps its cause, and is a wait for the budget', () => {
    const cause = new MaxRetriesPerRequestError(2);
    const mapped = budgetUnavailableOr(cause, 'token budget');
    assert.ok(mapped instanceof BudgetUnavailableError);
    assert.equal(mapped.cause, cause);
    assert.match(mapped.message, /token budget cannot be reached/);
    assert.ok(!NON_RETRYABLE_ERROR_TYPES.includes(BudgetUnavailableError.name));
    const failure = toApplicationFailure(mapped, 3);
    assert.ok(failure instanceof ApplicationFailure);
    assert.equal(failure.type, 'BudgetUnavailableError');
    assert.equal(failure.nonRetryable, false);
    assert.ok((failure.nextRetryDelay as number) > 0, 'Temporal brings the step back after a delay');
    assert.ok(waitsForBudget('BudgetUnavailableError'));
    assert.ok(waitsForBudget('TokenBudgetExhausted'), 'the legacy name of a budget refusal too');
    assert.ok(!waitsForBudget('ModelUnavailableError'));
  });

  test('when attempts fail, then the ones a Redis outage took are counted across them from the last heartbeat’s details', () => {
    const outage = new BudgetUnavailableError('the token budget cannot be reached');
    assert.equal(outageAttemptsAfter(outage, undefined), 1, 'the first attempt that met it');
    assert.equal(outageAttemptsAfter(outage, { budgetUnavailableAttempts: 2 }), 3);
    assert.equal(outageAttemptsAfter(new Error('the provider answered 529'), { budgetUnavailableAttempts: 3 }), 3, 'a later fault keeps the count');
    assert.equal(outageAttemptsAfter(new Error('the provider answered 529'), undefined), 0);
    assert.equal(outageAttemptsAfter(outage, { budgetUnavailableAttempts: 'two' }), 1, 'details of another shape count as none');
    assert.equal(outageAttemptsAfter(outage, { budgetUnavailableAttempts: -4 }), 1);
  });

  test('when a failure carries the count, then its details say so for the workflow', () => {
    const failure = toApplicationFailure(new Error('the provider answered 529'), 6, { budgetUnavailableAttempts: 5 });
    assert.ok(failure instanceof ApplicationFailure);
    assert.deepEqual(failure.details?.[0], { budgetUnavailableAttempts: 5, attempt: 6 });
  });

  test('when the token budget’s Redis is down, then reserving throws BudgetUnavailableError, not an ioredis error', async () => {
    const redis = await clientOfDeadRedis();
    try {
      const budget = new RedisBudget(redis, SETTINGS);
      await assert.rejects(budget.reserve(DEFAULT_POOL, 'interactive', { input: 100, output: 100, requests: 1 }), BudgetUnavailableError);
      await assert.rejects(budget.wait(DEFAULT_POOL, 'bulk', { input: 100, output: 100, requests: 1 }), BudgetUnavailableError);
    } finally {
      redis.disconnect();
    }
  });

  test('when the spend store’s Redis is down, then a hold throws BudgetUnavailableError, not an ioredis error', async () => {
    const redis = await clientOfDeadRedis();
    try {
      const store = new RedisSpendStore(redis, { keyPrefix: 'spend-unit' });
      await assert.rejects(store.hold('demo', { dailyUsd: 1 }, 0.01), BudgetUnavailableError);
    } finally {
      redis.disconnect();
    }
  });
});
