import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { Registry } from 'prom-client';
import { batchCollectorWorkflowId, batchEntrySignal, type BatchCollectorInput, laneWaitQuery } from '../../common/batch-lane';
import { laneWaitReader, type LaneWaitReading, registerLaneWaitGauge } from '../../lib/metrics-batch-lane-wait';
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

  test('when a collector holds entries inside its collect window, then it reports the first arrival, the API ages it per model, and keeps that answer while no worker can give one', async () => {
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
    const read = laneWaitReader(env.client);
    const collector = await env.client.workflow.signalWithStart('batchCollectorWorkflow', {
      workflowId: batchCollectorWorkflowId(model),
      taskQueue,
      args: [input],
      signal: batchEntrySignal,
      signalArgs: [{ customId: 'first', replyTo: 'nobody' }],
    });
    const beforeFirst = Date.now() - 1000;
    try {
      const mine = await worker.runUntil(async () => {
        await collector.signal(batchEntrySignal, { customId: 'second', replyTo: 'nobody' });
        const wait = await collector.query(laneWaitQuery);
        assert.ok(wait.oldestWaitingSince !== undefined, JSON.stringify(wait));
        assert.ok(Math.abs(wait.oldestWaitingSince - beforeFirst) < 60_000, 'the first entry’s arrival, in workflow time');
        let readings: LaneWaitReading[] = [];
        for (let i = 0; i < 100 && readings.length === 0; i++) {
          readings = (await read()).filter((reading) => reading.model === model);
          if (readings.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.deepEqual(readings, [{ model, oldestWaitingSince: wait.oldestWaitingSince }]);
        return readings;
      });

      // The worker is gone: the collector cannot answer, and its entries still wait.
      assert.deepEqual((await read()).filter((reading) => reading.model === model), mine, 'the last answer stands');

      const registry = new Registry();
      const since = mine[0]?.oldestWaitingSince as number;
      registerLaneWaitGauge(registry, async () => mine, () => since + 90_000);
      assert.match(await registry.metrics(), new RegExp(`slowlane_batch_lane_oldest_waiting_entry_age_seconds\\{model="${model}"\\} 90`));
    } finally {
      await collector.terminate('test over');
    }
  });
});
