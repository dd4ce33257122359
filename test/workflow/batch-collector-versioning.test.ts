import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import type { JobActivities } from '../../activities';
import { type BatchCollectorInput, type BatchEntry, batchEntrySignal } from '../../common/batch-lane';
import { workerTelemetry } from '../../lib/worker-telemetry';
import { workerDeploymentOptions } from '../../workers/worker-deployment';
import type { batchCollectorWorkflow } from '../../workflows';
import { createTemporalTestEnv } from '../support/temporal-env';
import { quietTemporalRuntime, sharedBundle } from '../support/workflow-harness';
import { testDataConverter } from '../support/test-codec';

type Collector = WorkflowHandle<typeof batchCollectorWorkflow>;
type LaneActivities = Pick<JobActivities, 'writeBatchSegment' | 'reconcileMessageBatches'>;

/**
 * Upgrade on continue-as-new needs a server that tells a pinned run its target version changed
 * (`targetWorkerDeploymentVersionChanged` on a workflow task) and honours the next run's `initialVersioningBehavior`.
 * Server 1.32.0 (Temporal CLI v1.9.1) does. Server 1.29.1, embedded in the CLI v1.5.1 that local/stack/tools.ts pins,
 * does neither (its go.temporal.io/api v1.53.0 has no such fields), so there the test holds the collector to what
 * docs/deployment.md says of such a server: it stays on its build. SLOWLANE_TEST_TEMPORAL_CLI names another CLI;
 * the file then starts a dev server of its own from it.
 */
const FIRST_SERVER_WITH_UPGRADE_ON_CAN = [1, 32, 0];

/**
 * The batch lane's collector never idles during a backfill: it continues as new every few thousand events. Pinned
 * like every job (workers/worker-deployment.ts), it would stay on the build that first started it. Two builds of one
 * worker deployment poll the same task queue here; each has its own lane activities, so the calls show which build
 * ran the collector's steps.
 */
describe('the batch collector across worker builds', () => {
  let env: TestWorkflowEnvironment;
  let bundle: WorkflowBundle;
  let upgradesOnContinueAsNew: boolean;
  beforeAll(async () => {
    quietTemporalRuntime();
    const cliPath = process.env.SLOWLANE_TEST_TEMPORAL_CLI;
    env = cliPath
      ? await TestWorkflowEnvironment.createLocal({
          client: { dataConverter: testDataConverter() },
          server: { executable: { type: 'existing-path', path: cliPath }, namespace: 'default', log: { format: 'json', level: 'error' } },
        })
      : await createTemporalTestEnv();
    const { serverVersion } = await env.client.workflowService.getSystemInfo({});
    upgradesOnContinueAsNew = compareVersions(serverVersion ?? '', FIRST_SERVER_WITH_UPGRADE_ON_CAN) >= 0;
    bundle = await sharedBundle();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  test(
    'when v2 becomes current while a v1 collector gathers a batch, then its next entry moves it to v2 by continue-as-new (a server without upgrade on continue-as-new keeps it on v1)',
    async () => {
      const namespace = env.namespace ?? 'default';
      const deploymentName = `test-${randomUUID().slice(0, 8)}`;
      const taskQueue = `test-${randomUUID()}`;
      const builds = { v1: laneActivities(), v2: laneActivities() };
      const startWorker = async (buildId: 'v1' | 'v2') => {
        const worker = await Worker.create({
          connection: env.nativeConnection,
          namespace,
          taskQueue,
          identity: `collector-worker-${buildId}`,
          workflowBundle: bundle,
          dataConverter: testDataConverter(),
          activities: builds[buildId].activities,
          workerDeploymentOptions: await workerDeploymentOptions({ versioning: true, deploymentName, buildId }, bundle),
          // The workflows report spans through sinks; here they go nowhere anyone reads.
          sinks: workerTelemetry().sinks,
          // Every task replays the run from history: the flag the waits read must replay as it was first seen.
          maxCachedWorkflows: 0,
        });
        return { worker, running: worker.run() };
      };
      const setCurrent = (buildId: string) =>
        // The version exists once the server has seen its worker poll; until then the call is refused.
        eventually(() => env.client.workflowService.setWorkerDeploymentCurrentVersion({ namespace, deploymentName, buildId }));
      const workflowId = `batch-collector:test-${randomUUID()}`;
      const enqueue = (entry: BatchEntry) =>
        // As the lane's activities do (workers/activity-deps.ts): the running collector gets it, or one starts.
        env.client.workflow.signalWithStart<typeof batchCollectorWorkflow, [BatchEntry]>('batchCollectorWorkflow', {
          workflowId,
          taskQueue,
          args: [collectorInput()],
          signal: batchEntrySignal,
          signalArgs: [entry],
        });

      const v1 = await startWorker('v1');
      const v2 = await startWorker('v2');
      try {
        await setCurrent('v1');
        await enqueue(entry('a'));
        const firstRun = await runOnItsBuild(env.client.workflow.getHandle(workflowId));
        assert.equal(firstRun.buildId, 'v1');
        await eventually(async () => assert.equal(builds.v1.calls.reconcileMessageBatches, 1, 'the v1 run has reconciled'));

        await setCurrent('v2');
        await enqueue(entry('b'));
        if (!upgradesOnContinueAsNew) {
          // The run took the entry on v1 (a workflow task completed after it) and went on waiting there.
          const events = await eventually(async () => {
            const history = await historyOf(env.client.workflow.getHandle(workflowId, firstRun.runId));
            const signals = history.filter((event) => event.workflowExecutionSignaledEventAttributes).length;
            if (signals < 2 || !history.at(-1)?.workflowTaskCompletedEventAttributes) {
              throw new Error('the second entry has not been taken yet');
            }
            return history;
          });
          assert.deepEqual(buildsThatCompletedTasks(events), ['v1']);
          assert.equal((await runOnItsBuild(env.client.workflow.getHandle(workflowId))).runId, firstRun.runId, 'no new run');
          return;
        }
        const nextRun = await runOnItsBuild(env.client.workflow.getHandle(workflowId), firstRun.runId);
        assert.equal(nextRun.buildId, 'v2', 'the next run is pinned to the new current build');

        const firstEvents = await historyOf(env.client.workflow.getHandle(workflowId, firstRun.runId));
        assert.equal(firstEvents.at(-1)?.eventType, temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW);
        assert.deepEqual(buildsThatCompletedTasks(firstEvents), ['v1'], 'the first run ran on v1 to its end');
        const nextEvents = await historyOf(env.client.workflow.getHandle(workflowId, nextRun.runId));
        assert.deepEqual(buildsThatCompletedTasks(nextEvents), ['v2'], 'the next run ran on v2 from its first task');
        const identities = new Set(nextEvents.map((event) => event.workflowTaskCompletedEventAttributes?.identity).filter(Boolean));
        assert.deepEqual([...identities], ['collector-worker-v2']);

        // The pinned run wrote what it held on its own build before it moved; the next run carries counts only.
        assert.deepEqual(builds.v1.segments, [['a', 'b']]);
        assert.deepEqual(builds.v2.segments, []);
      } finally {
        v1.worker.shutdown();
        v2.worker.shutdown();
        await Promise.all([v1.running, v2.running]);
        await env.client.workflow.getHandle(workflowId).terminate('test over').catch(() => undefined);
      }
    },
  );
});

function collectorInput(): BatchCollectorInput {
  // A window far longer than the test: the batch stays open, so no batch workflow starts.
  return { model: 'test-model', settings: { collectWindowMs: 60 * 60_000, maxRequests: 10_000, pollIntervalMs: 60_000 } };
}

function entry(customId: string): BatchEntry {
  return { customId, replyTo: `job-${customId}`, requestBytes: 100 };
}

function laneActivities() {
  const calls = { reconcileMessageBatches: 0 };
  const segments: string[][] = [];
  const activities: LaneActivities = {
    writeBatchSegment(input) {
      segments.push(input.entries.map((written) => written.customId));
      return Promise.resolve();
    },
    reconcileMessageBatches() {
      calls.reconcileMessageBatches += 1;
      return Promise.resolve({ listed: 0, cancelled: 0, harvested: 0, foreign: 0 });
    },
  };
  return { calls, segments, activities };
}

/**
 * The latest run of `collector` other than `previousRunId`, once its first workflow task has pinned it to a build
 * (until then a run continued as new with AUTO_UPGRADE reports the build it came from).
 */
async function runOnItsBuild(collector: Collector, previousRunId?: string) {
  return eventually(async () => {
    const info = (await collector.describe()).raw.workflowExecutionInfo;
    const runId = info?.execution?.runId ?? '';
    const pinned = info?.versioningInfo?.behavior === temporal.api.enums.v1.VersioningBehavior.VERSIONING_BEHAVIOR_PINNED;
    const buildId = info?.versioningInfo?.deploymentVersion?.buildId;
    if (runId === previousRunId || !pinned || !buildId) throw new Error(`run ${runId} is not yet pinned to a build`);
    return { runId, buildId };
  });
}

async function historyOf(run: Collector) {
  return (await run.fetchHistory()).events ?? [];
}

/** The build of every workflow task completion in a run's history, each once, in order. */
function buildsThatCompletedTasks(events: temporal.api.history.v1.IHistoryEvent[]): string[] {
  const builds = events.flatMap((event) => event.workflowTaskCompletedEventAttributes?.deploymentVersion?.buildId ?? []);
  return [...new Set(builds)];
}

/** Compares a server's version ("1.29.1") with one given as numbers. */
function compareVersions(version: string, other: number[]): number {
  const parts = version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let index = 0; index < Math.max(parts.length, other.length); index++) {
    const difference = (parts[index] ?? 0) - (other[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

async function eventually<T>(call: () => Promise<T>, attempts = 150): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
