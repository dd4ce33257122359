import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { describe, test } from '@jest/globals';
import type { Client } from '@temporalio/client';
import { batchCollectorWorkflowId } from '../../common/batch-lane';
import { assertBilledOnceInLane, batchLaneSuite, laneWorkerEnv, TEST_LANE_ALLOWANCE } from '../support/batch-lane-suite';
import { safeOrder } from '../../local/samples/sample-orders';
import { testEnv } from '../support/test-env';

/** order.score's model (MODEL_SCORE's default); its collector is `batch-collector:<model>`. */
const MODEL = 'claude-haiku-4-5';
const LANE_ENV = laneWorkerEnv('3s');

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The simulator's Message Batches created since `since`, with their entry counts and whether they have ended. */
async function simulatorBatchesSince(since: number): Promise<Array<{ id: string; entries: number; ended: boolean }>> {
  const response = await fetch(`${testEnv().simulatorUrl}/v1/messages/batches?limit=1000`, { headers: { 'x-api-key': 'test' } });
  const { data } = (await response.json()) as {
    data: Array<{ id: string; created_at: string; processing_status: string; request_counts: Record<string, number> }>;
  };
  return data
    .filter((batch) => Date.parse(batch.created_at) >= since)
    .map((batch) => ({
      id: batch.id,
      entries: Object.values(batch.request_counts).reduce((sum, n) => sum + n, 0),
      ended: batch.processing_status === 'ended',
    }));
}

/** How many batch workflows started since `since` completed `submitMessageBatch`: batches the lane knows it created. */
async function submissionsCompleted(client: Client, since: number): Promise<number> {
  let completed = 0;
  for await (const run of client.workflow.list({ query: `WorkflowType = "messageBatchWorkflow" AND StartTime >= "${new Date(since).toISOString()}"` })) {
    const events = (await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory()).events ?? [];
    const submits = new Set(
      events
        .filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'submitMessageBatch')
        .map((event) => String(event.eventId)),
    );
    completed += events.filter((event) => submits.has(String(event.activityTaskCompletedEventAttributes?.scheduledEventId))).length;
  }
  return completed;
}

describe('the batch lane', () => {
  // Batches take 8 s: long enough to kill a worker while one is in progress.
  const laneHarness = batchLaneSuite({ batchProcessingMs: 8_000 });

  test('when the collector’s worker is killed while it gathers and again while its batch is in progress, then every job gets its own answer, billed once at the batch price, and no batch is created twice', async () => {
    const harness = laneHarness();
    // Three worker starts: each took 80–100 s at load ≈ 30 on this machine.
    const marker = `lane-${randomUUID()}`;
    const client = await harness.temporalClient();
    const collector = client.workflow.getHandle(batchCollectorWorkflowId(MODEL));
    const startedAt = Date.now();
    const first = await harness.startWorker(LANE_ENV);
    const jobs = await Promise.all(
      [1, 2, 3, 4].map((n) => harness.startOrderJob(safeOrder(`${marker}-${n}`), { batchLane: TEST_LANE_ALLOWANCE })),
    );

    // Killed while the collector holds the entries in its 3 s window: nothing submitted yet.
    await waitFor('the collector holds the entries', async () => {
      try {
        return (await collector.describe()).status.name === 'RUNNING';
      } catch {
        return false;
      }
    });
    assert.equal(await submissionsCompleted(client, startedAt), 0, 'the kill should land before the batch went out');
    await first.kill();
    harness.supervisor.forget(first);

    const second = await harness.startWorker(LANE_ENV);
    await waitFor('the batch was submitted', async () => (await submissionsCompleted(client, startedAt)) > 0, 120_000);
    // Killed while the batch is in progress at the provider (8 s): its poll timers and answers wait for the next worker.
    await second.kill();
    harness.supervisor.forget(second);

    await harness.startWorker(LANE_ENV);
    const states = await Promise.all(jobs.map((job) => job.result()));
    for (const state of states) assertBilledOnceInLane(state, 'batch', MODEL);
    // Every batch created since the test began has ended (this suite's and other test files' on the same
    // simulator), so a second batch holding the same entries would have been answered, and billed, by now.
    await waitFor('every batch since the test began has ended', async () =>
      (await simulatorBatchesSince(startedAt)).every((batch) => batch.ended),
    );
    const answeredIn = new Set<string>();
    for (const n of [1, 2, 3, 4]) {
      const calls = await harness.simulatorCalls(`${marker}-${n}"`);
      assert.deepEqual(calls.map((call) => call.lane), ['batch'], `order ${n} was billed once, in a batch`);
      answeredIn.add(calls[0]?.requestId ?? '');
    }
    // The batches that answered these orders are ones the collector knows it created (other test files' bulk jobs
    // may share the model's collector and the simulator, so the batches are picked by the call log's batch id).
    assert.ok(answeredIn.size >= 1 && answeredIn.size <= (await submissionsCompleted(client, startedAt)));
    const created = (await simulatorBatchesSince(startedAt)).filter((batch) => answeredIn.has(batch.id));
    assert.equal(created.length, answeredIn.size, 'every batch that answered an order is in the simulator');
  }, 600_000);

  test('when a batch entry errors, then its job asks live and is billed once, live', async () => {
    const harness = laneHarness();
    const marker = `lane-err-${randomUUID()}`;
    // The first matching request is the batch entry: it ends errored (not billed); the live call that follows is answered.
    const rule = await harness.addSimulatorFault({ match: { textIncludes: marker }, fault: { kind: 'server_error' }, times: 1 });
    try {
      const state = await (await harness.startOrderJob(safeOrder(marker), { batchLane: TEST_LANE_ALLOWANCE })).result();
      assertBilledOnceInLane(state, 'live', MODEL);
      const calls = await harness.simulatorCalls(marker);
      assert.deepEqual(calls.map((call) => call.lane), [undefined]);
    } finally {
      await harness.removeSimulatorFault(rule);
    }
  });

  test('when a job’s deadline leaves less than the margin, then it takes the live path at once', async () => {
    const harness = laneHarness();
    const marker = `lane-due-${randomUUID()}`;
    const deadline = new Date(Date.now() + 30_000).toISOString();
    const state = await (await harness.startOrderJob(safeOrder(marker), { batchLane: TEST_LANE_ALLOWANCE, deadline })).result();
    assertBilledOnceInLane(state, 'live', MODEL);
  });
});
