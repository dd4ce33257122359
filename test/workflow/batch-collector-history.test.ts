import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Context } from '@temporalio/activity';
import { Worker } from '@temporalio/worker';
import {
  batchCollectorWorkflowId,
  batchEntrySignal,
  type BatchCollectorInput,
  type BatchEntry,
} from '../../common/batch-lane';
import { workerTelemetry } from '../../lib/worker-telemetry';
import { collectorSignals } from '../../activities/batch-lane/collector-signals';
import { createTemporalTestEnv } from '../support/temporal-env';
import { testDataConverter } from '../support/test-codec';
import { quietTemporalRuntime, sharedBundle } from '../support/workflow-harness';

/** Each run of a workflow id, first to last, with its history length: followed through continue-as-new. */
async function runsOf(
  client: Client,
  workflowId: string,
  firstRunId: string,
): Promise<Array<{ runId: string; historyLength: number; signals: number }>> {
  const runs: Array<{ runId: string; historyLength: number; signals: number }> = [];
  let runId: string | undefined = firstRunId;
  while (runId !== undefined) {
    const history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>> = await client.workflow
      .getHandle(workflowId, runId)
      .fetchHistory();
    const signals = history.events?.filter((event) => event.workflowExecutionSignaledEventAttributes).length ?? 0;
    runs.push({ runId, historyLength: history.events?.length ?? 0, signals });
    runId = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return runs;
}

/** The first run of a workflow id's chain, as its latest run's start names it. */
async function firstRunOf(client: Client, workflowId: string): Promise<string> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const firstRunId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.firstExecutionRunId;
  if (!firstRunId) throw new Error(`${workflowId} names no first run`);
  return firstRunId;
}

/** A worker for the collector alone: segments are recorded in `written`, and closed batches' workflows wait. */
async function collectorWorker(env: TestWorkflowEnvironment, taskQueue: string, written: string[]): Promise<Worker> {
  return Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await sharedBundle(),
    dataConverter: testDataConverter(),
    sinks: workerTelemetry().sinks,
    activities: {
      // Writing a segment takes a while, as S3 does under load: entries keep arriving meanwhile.
      async writeBatchSegment(input: { entries: BatchEntry[] }) {
        await sleep(200);
        written.push(...input.entries.map((entry) => entry.customId));
      },
      async reconcileMessageBatches() {
        return { cancelled: 0, harvested: 0 };
      },
      // A closed batch's own workflow waits here until the worker stops: the test is about the collector.
      async submitMessageBatch() {
        await Context.current().cancelled;
      },
    },
  });
}

describe('the batch collector’s history while entries keep arriving', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    quietTemporalRuntime();
    env = await createTemporalTestEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  test('when entries arrive steadily past a run’s event limit, then the run continues as new at once, carrying what is still waiting, and every entry reaches a batch exactly once', async () => {
    const model = `test-model-${randomUUID()}`;
    const taskQueue = `test-${randomUUID()}`;
    const entries = 1_200;
    const historyEventsLimit = 200;
    const written: string[] = [];
    const worker = await collectorWorker(env, taskQueue, written);
    // Batches close by a short window; their own workflows are left unfinished.
    const input: BatchCollectorInput = {
      model,
      historyEventsLimit,
      settings: { collectWindowMs: 2_000, maxRequests: 100_000, pollIntervalMs: 60_000 },
    };
    const entry = (n: number): BatchEntry => ({ customId: `entry-${n}`, replyTo: 'nobody' });
    const collector = await env.client.workflow.signalWithStart('batchCollectorWorkflow', {
      workflowId: batchCollectorWorkflowId(model),
      taskQueue,
      args: [input],
      signal: batchEntrySignal,
      signalArgs: [entry(0)],
    });
    try {
      await worker.runUntil(async () => {
        // One at a time, as a steady stream of jobs enqueues: each signal goes to whichever run is current.
        for (let n = 1; n < entries; n++)
          await env.client.workflow.getHandle(collector.workflowId).signal(batchEntrySignal, entry(n));
        for (let i = 0; i < 300 && written.length < entries; i++) await sleep(100);
      });
      assert.equal(written.length, entries, 'every entry written to a segment once');
      assert.equal(new Set(written).size, entries, 'no entry written twice');
      const runs = await runsOf(env.client, collector.workflowId, collector.signaledRunId);
      assert.ok(runs.length >= 3, `the collector continued as new while entries arrived: ${JSON.stringify(runs)}`);
      // A run ends within a segment write's worth of signals of its limit (more on a loaded machine, where a write
      // takes longer: 352 seen beside a full test run); a run that drained until nothing arrived held the whole
      // stream, thousands of events.
      for (const run of runs)
        assert.ok(
          run.historyLength <= historyEventsLimit * 3,
          `a run of ${run.historyLength} events: ${JSON.stringify(runs)}`,
        );
    } finally {
      await env.client.workflow
        .getHandle(collector.workflowId)
        .terminate('test over')
        .catch(() => undefined);
    }
  });

  test('when a worker process enqueues thousands of entries at once, then they reach the collector in a few signals, and every entry reaches a batch exactly once', async () => {
    const model = `test-model-${randomUUID()}`;
    const taskQueue = `test-${randomUUID()}`;
    const entries = 3_000;
    const slots = 100;
    const written: string[] = [];
    const worker = await collectorWorker(env, taskQueue, written);
    const settings = { collectWindowMs: 2_000, maxRequests: 100_000, pollIntervalMs: 60_000 };
    // The product's own sender, as the worker wires it (workers/activity-deps.ts).
    const signalCollector = collectorSignals(
      env.client,
      {
        workflowId: batchCollectorWorkflowId,
        taskQueue: () => taskQueue,
        input: (forModel, laneSettings) => ({ model: forModel, settings: laneSettings }),
      },
      true,
    );
    const workflowId = batchCollectorWorkflowId(model);
    try {
      await worker.runUntil(async () => {
        // As a worker's activity slots enqueue: each slot one entry after another, all slots at once.
        let next = 0;
        const slot = async () => {
          while (next < entries)
            await signalCollector(model, settings, { customId: `entry-${next++}`, replyTo: 'nobody' });
        };
        await Promise.all(Array.from({ length: slots }, slot));
        for (let i = 0; i < 300 && written.length < entries; i++) await sleep(100);
      });
      assert.equal(written.length, entries, 'every entry written to a segment once');
      assert.equal(new Set(written).size, entries, 'no entry written twice');
      const runs = await runsOf(env.client, workflowId, await firstRunOf(env.client, workflowId));
      const signals = runs.reduce((sum, run) => sum + run.signals, 0);
      // One signal per entry would be 3,000 events; each round trip carries what the slots enqueued meanwhile.
      assert.ok(signals <= entries / 10, `${signals} signals for ${entries} entries: ${JSON.stringify(runs)}`);
    } finally {
      await env.client.workflow
        .getHandle(workflowId)
        .terminate('test over')
        .catch(() => undefined);
    }
  });
});
