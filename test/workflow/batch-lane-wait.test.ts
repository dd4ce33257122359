import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { Registry } from 'prom-client';
import { batchCollectorWorkflowId, batchEntrySignal, type BatchCollectorInput, laneWaitQuery } from '../../common/batch-lane';
import { readLaneWaits, registerLaneWaitGauge } from '../../lib/metrics-batch-lane-wait';
import { createTemporalTestEnv } from '../support/temporal-env';
import { testDataConverter } from '../support/test-codec';
import { quietTemporalRuntime, sharedBundle } from '../support/workflow-harness';

describe('the batch lane’s oldest waiting entry, as the API reads it', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    quietTemporalRuntime();
    env = await createTemporalTestEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  test('when a collector holds entries inside its collect window, then it reports the first arrival and the API ages it per model', async () => {
    const model = `test-model-${randomUUID()}`;
    const taskQueue = `test-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await sharedBundle(),
      dataConverter: testDataConverter(),
      maxCachedWorkflows: 0,
    });
    // A window of an hour: nothing is written or submitted while the test looks, so no activity is needed.
    const input: BatchCollectorInput = { model, settings: { collectWindowMs: 60 * 60_000, maxRequests: 100, pollIntervalMs: 60_000 } };
    await worker.runUntil(async () => {
      const beforeFirst = Date.now();
      const collector = await env.client.workflow.signalWithStart('batchCollectorWorkflow', {
        workflowId: batchCollectorWorkflowId(model),
        taskQueue,
        args: [input],
        signal: batchEntrySignal,
        signalArgs: [{ customId: 'first', replyTo: 'nobody' }],
      });
      try {
        await collector.signal(batchEntrySignal, { customId: 'second', replyTo: 'nobody' });
        const wait = await collector.query(laneWaitQuery);
        assert.ok(wait.oldestWaitingSince !== undefined, JSON.stringify(wait));
        assert.ok(wait.oldestWaitingSince >= beforeFirst - 1000 && wait.oldestWaitingSince <= Date.now() + 1000, 'the first entry’s arrival, in workflow time');

        let mine: Awaited<ReturnType<typeof readLaneWaits>> = [];
        for (let i = 0; i < 100 && mine.length === 0; i++) {
          mine = (await readLaneWaits(env.client)).filter((reading) => reading.model === model);
          if (mine.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.deepEqual(mine, [{ model, oldestWaitingSince: wait.oldestWaitingSince }]);

        const registry = new Registry();
        registerLaneWaitGauge(registry, async () => mine, () => (wait.oldestWaitingSince as number) + 90_000);
        assert.match(await registry.metrics(), new RegExp(`slowlane_batch_lane_oldest_waiting_entry_age_seconds\\{model="${model}"\\} 90`));
      } finally {
        await collector.terminate('test over');
      }
    });
  });
});
