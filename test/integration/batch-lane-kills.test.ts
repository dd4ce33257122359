import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { describe, test } from '@jest/globals';
import { batchCollectorWorkflowId } from '../../common/batch-lane';
import { BATCH_LANE_KILL_POINTS, type BatchLaneKillPoint } from '../../lib/config/batch-lane-settings';
import type { ManagedProcess } from '../../local/stack/supervisor';
import { safeOrder } from '../../local/samples/sample-orders';
import { assertBilledOnceInLane, batchLaneSuite, laneWorkerEnv, TEST_LANE_ALLOWANCE } from '../support/batch-lane-suite';
import type { FaultHarness, SimulatorBatchBilling } from '../support/fault-harness';

/** order.score's model (MODEL_SCORE's default); its collector is `batch-collector:<model>`. */
const MODEL = 'claude-haiku-4-5';
const JOBS = 3;
const LANE_ENV = laneWorkerEnv('2s');
/** Batches end this long after they are created: before a killed attempt's retry (20 s heartbeat timeout) looks. */
const BATCH_PROCESSING_MS = 3_000;

/** Waits for the worker to die of its own BATCH_TEST_KILL_AT hook: SIGKILL, after saying where. */
async function diesAt(worker: ManagedProcess, point: BatchLaneKillPoint, timeoutMs = 180_000): Promise<void> {
  const { child } = worker;
  if (child.exitCode === null && child.signalCode === null) {
    await once(child, 'exit', { signal: AbortSignal.timeout(timeoutMs) }).catch(() =>
      assert.fail(`the worker did not die at ${point} within ${timeoutMs / 1000} s`),
    );
  }
  assert.equal(child.signalCode, 'SIGKILL', `the worker should have been SIGKILLed, it exited with ${child.exitCode}`);
  assert.ok(worker.output().includes(`killed at ${point}`), `the worker died elsewhere than ${point}:\n${worker.output().slice(-2_000)}`);
}

/** Starts bulk orders (`<marker>-<n>`) on a worker that dies at `point`, and waits for it to die there. */
async function ordersKilledAt(harness: FaultHarness, point: BatchLaneKillPoint, marker: string, jobs = JOBS) {
  const doomed = await harness.startWorker({ ...LANE_ENV, BATCH_TEST_KILL_AT: point });
  const handles = await Promise.all(
    Array.from({ length: jobs }, (_, n) => harness.startOrderJob(safeOrder(`${marker}-${n}`), { batchLane: TEST_LANE_ALLOWANCE })),
  );
  await diesAt(doomed, point);
  harness.supervisor.forget(doomed);
  return handles;
}

/** Each order completed with one call, answered in a batch and billed at the batch price. */
async function assertEachAnsweredOnceInBatch(harness: FaultHarness, marker: string, handles: Awaited<ReturnType<typeof ordersKilledAt>>) {
  const states = await Promise.all(handles.map((handle) => handle.result()));
  for (const state of states) assertBilledOnceInLane(state, 'batch', MODEL);
  for (let n = 0; n < handles.length; n++) {
    const calls = await harness.simulatorCalls(`${marker}-${n}"`);
    assert.deepEqual(calls.map((call) => call.lane), ['batch'], `order ${n}: one call, answered in a batch`);
  }
}

/** The simulator's invoice for the marker's entries once every batch carrying one has ended and been read, or at the timeout. */
async function settledBilling(harness: FaultHarness, marker: string, timeoutMs = 60_000): Promise<SimulatorBatchBilling> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const billing = await harness.simulatorBatchBilling(marker);
    if ((billing.inProgress === 0 && billing.unread === 0) || Date.now() > until) return billing;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function assertBilledOnceNoneUnread(billing: SimulatorBatchBilling, entries: number): void {
  assert.equal(billing.billedTwice, 0, `entries billed more than once: ${JSON.stringify(billing)}`);
  assert.equal(billing.billedOnce, entries, JSON.stringify(billing));
  assert.equal(billing.inProgress, 0, JSON.stringify(billing));
  assert.deepEqual(billing.unreadIds, [], 'batches whose results nobody read');
}

describe('the batch lane when its worker process is killed at each point of a batch', () => {
  const laneHarness = batchLaneSuite({ batchProcessingMs: BATCH_PROCESSING_MS });

  for (const point of BATCH_LANE_KILL_POINTS) {
    test(`when the worker is SIGKILLed at ${point}, then a fresh worker settles every job, each entry is billed once and no batch is left unread`, async () => {
      const harness = laneHarness();
      const marker = `kill-${point}-${randomUUID()}`;
      const handles = await ordersKilledAt(harness, point, marker);
      const fresh = await harness.startWorker(LANE_ENV);
      try {
        await assertEachAnsweredOnceInBatch(harness, marker, handles);
        assertBilledOnceNoneUnread(await settledBilling(harness, marker), JOBS);
      } finally {
        // The next test's doomed worker must be the only one polling.
        await fresh.stop();
        harness.supervisor.forget(fresh);
      }
    }, 600_000);
  }

  test('when the worker is SIGKILLed between the create and its record and the batch is still running at the retry, then the retry cancels it, and the reconciler of the next collector reads it', async () => {
    const harness = laneHarness();
    const marker = `kill-running-${randomUUID()}`;
    // The batch the killed attempt creates runs for 10 minutes; the one its retry creates, for seconds.
    await harness.simulatorConfig({ batchProcessingMs: 10 * 60_000 });
    const handles = await ordersKilledAt(harness, 'between-create-and-record', marker);
    await harness.simulatorConfig({ batchProcessingMs: BATCH_PROCESSING_MS });
    const fresh = await harness.startWorker(LANE_ENV);
    try {
      await assertEachAnsweredOnceInBatch(harness, marker, handles);
      const beforeReconcile = await harness.simulatorBatchBilling(marker);
      assert.equal(beforeReconcile.batches, 2, `the killed attempt's batch and its retry's: ${JSON.stringify(beforeReconcile)}`);
      assert.equal(beforeReconcile.unread, 1, `only the cancelled batch is unread until a reconcile: ${JSON.stringify(beforeReconcile)}`);

      // A collector reconciles when it starts (and every 30 minutes): end the idle one, as its 10 idle minutes
      // would, and the next entry starts one that reconciles first.
      const client = await harness.temporalClient();
      await client.workflow.getHandle(batchCollectorWorkflowId(MODEL)).terminate('the kill test wants a collector that starts, and reconciles');
      const after = await harness.startOrderJob(safeOrder(`${marker}-next`), { batchLane: TEST_LANE_ALLOWANCE });
      assertBilledOnceInLane(await after.result(), 'batch', MODEL);
      assertBilledOnceNoneUnread(await settledBilling(harness, marker), JOBS + 1);
    } finally {
      await fresh.stop();
      harness.supervisor.forget(fresh);
    }
  }, 600_000);
});
