import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { JobState } from '../../common/job';
import { statusQuery } from '../../common/messages';
import { startLocalRedis, type LocalRedis } from '../../local/stack/redis-server';
import { wakeBudgetWaits } from '../../ops/spend-cap-raised';
import { cleanTextInvoice, FaultHarness } from '../support/fault-harness';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The real worker process, simulator and Redis: a tenant's cap stops its job before the provider, the job waits in
 * budget_wait, and after the cap is raised (workers restarted with the new setting) the operator's wake finishes it.
 */
describe('a tenant whose daily spend cap is reached, on the real stack', () => {
  let harness: FaultHarness;
  let redis: LocalRedis;
  const prefix = `spend-it-${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    redis = await startLocalRedis();
    harness = await FaultHarness.create();
  });
  afterAll(async () => {
    await harness?.close();
    await redis?.stop();
  });

  const workerWithCap = (dailyUsd: number) =>
    harness.startWorker({ REDIS_URL: redis.url, SPEND_REDIS_PREFIX: prefix, TENANT_SPEND_CAPS: JSON.stringify({ demo: { dailyUsd } }) });

  test('when the next call would pass the cap, then the job waits in budget_wait, and resumes after the cap is raised', async () => {
    const marker = `spend-${randomUUID()}`;
    // A millionth of a dollar: the window's first call (classification) runs, as an empty window admits one; the next cannot.
    const capped = await workerWithCap(0.000001);
    const handle = await harness.startJob(cleanTextInvoice(marker));
    let waiting: JobState | undefined;
    for (let i = 0; i < 600 && waiting?.status !== 'budget_wait'; i++) {
      waiting = await handle.query(statusQuery).catch(() => undefined);
      if (waiting?.status !== 'budget_wait') await pause(100);
    }
    assert.equal(waiting?.status, 'budget_wait', `the job is ${waiting?.status}`);
    assert.equal(waiting.step, 'extractInvoiceFields');
    assert.equal(waiting.budgetWait?.window, 'day');
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    assert.equal(waiting.budgetWait?.resumesAt, midnight.toISOString());
    assert.deepEqual(
      (await harness.simulatorCalls(marker)).map((call) => call.tool),
      ['classify_document'],
      'the refused extraction never reached the provider',
    );

    await capped.stop();
    harness.supervisor.forget(capped);
    await workerWithCap(100);
    const client = await harness.temporalClient();
    let woken = 0;
    for (let i = 0; i < 100 && woken === 0; i++) {
      woken = (await wakeBudgetWaits(client, 'demo', 'ops-oliver')).woken;
      if (woken === 0) await pause(200);
    }
    assert.equal(woken, 1);
    const state = await handle.result();
    assert.equal(state.status, 'posted');
    const day = new Date().toISOString().slice(0, 10);
    const spent = Number(await redis.client().get(`${prefix}:{demo}:day:${day}`));
    assert.ok(Math.abs(spent - state.usage.costUsd) < 1e-12, `the tenant's day total ${spent} is the job's cost ${state.usage.costUsd}`);
  });
});
