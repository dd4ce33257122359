import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { describe, test } from '@jest/globals';
import { BATCH_LANE_KILL_POINTS } from '../../lib/config/batch-lane-settings';
import type { ManagedProcess } from '../../local/stack/supervisor';
import { safeOrder } from '../../local/samples/sample-orders';
import { assertBilledOnceInLane, batchLaneSuite, laneWorkerEnv, TEST_LANE_ALLOWANCE } from '../support/batch-lane-suite';
import type { SimulatorBatchBilling } from '../support/fault-harness';

/** order.score's model (MODEL_SCORE's default). */
const MODEL = 'claude-haiku-4-5';
const JOBS = 3;
const LANE_ENV = laneWorkerEnv('2s');

/** Waits for the worker to die of its own BATCH_TEST_KILL_AT hook: SIGKILL, after saying where. */
async function diesAt(worker: ManagedProcess, point: string, timeoutMs = 180_000): Promise<void> {
  const { child } = worker;
  if (child.exitCode === null && child.signalCode === null) {
    await once(child, 'exit', { signal: AbortSignal.timeout(timeoutMs) }).catch(() => assert.fail(`the worker did not die ${point} within ${timeoutMs / 1000} s`));
  }
  assert.equal(child.signalCode, 'SIGKILL', `the worker should have been SIGKILLed, it exited with ${child.exitCode}`);
  assert.ok(worker.output().includes(`killed at ${point}`), `the worker died elsewhere than ${point}:\n${worker.output().slice(-2_000)}`);
}

async function settledBilling(read: () => Promise<SimulatorBatchBilling>, timeoutMs = 60_000): Promise<SimulatorBatchBilling> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const billing = await read();
    if ((billing.inProgress === 0 && billing.unread === 0) || Date.now() > until) return billing;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe('the batch lane when its worker process is killed at each point of a batch', () => {
  // Batches end 3 s after they are created: before a killed attempt's retry (20 s heartbeat timeout) looks for them.
  const laneHarness = batchLaneSuite({ batchProcessingMs: 3_000 });

  for (const point of BATCH_LANE_KILL_POINTS) {
    test(`when the worker is SIGKILLed at ${point}, then a fresh worker settles every job, each entry is billed once and no batch is left unread`, async () => {
      const harness = laneHarness();
      const marker = `kill-${point}-${randomUUID()}`;
      const doomed = await harness.startWorker({ ...LANE_ENV, BATCH_TEST_KILL_AT: point });
      const jobs = await Promise.all(
        Array.from({ length: JOBS }, (_, n) => harness.startOrderJob(safeOrder(`${marker}-${n}`), { batchLane: TEST_LANE_ALLOWANCE })),
      );
      await diesAt(doomed, point);
      harness.supervisor.forget(doomed);

      const fresh = await harness.startWorker(LANE_ENV);
      try {
        const states = await Promise.all(jobs.map((job) => job.result()));
        for (const state of states) assertBilledOnceInLane(state, 'batch', MODEL);
        for (let n = 0; n < JOBS; n++) {
          const calls = await harness.simulatorCalls(`${marker}-${n}"`);
          assert.deepEqual(calls.map((call) => call.lane), ['batch'], `order ${n}: one call, answered in a batch`);
        }
        // Every batch that carried these orders: ended, its results downloaded, each entry billed once in all of them.
        const billing = await settledBilling(() => harness.simulatorBatchBilling(marker));
        assert.equal(billing.billedTwice, 0, `entries billed more than once: ${JSON.stringify(billing)}`);
        assert.equal(billing.billedOnce, JOBS, JSON.stringify(billing));
        assert.equal(billing.inProgress, 0, JSON.stringify(billing));
        assert.deepEqual(billing.unreadIds, [], 'batches whose results nobody read');
      } finally {
        // The next point's doomed worker must be the only one polling.
        await fresh.stop();
        harness.supervisor.forget(fresh);
      }
    }, 600_000);
  }
});
