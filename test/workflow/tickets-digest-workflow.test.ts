import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { TicketsDigestActivities } from '../../activities/tickets-digest';
import { ModelRequestInvalidError } from '../../common/errors';
import type { JobState } from '../../common/job';
import { TICKETS_DIGEST_BATCHING } from '../../common/job-types/tickets-digest/definition';
import type { TicketsDigestJobInput } from '../../common/job-types/tickets-digest/tickets-digest-job';
import { retryUpdate, statusQuery } from '../../common/messages';
import { workerTelemetry } from '../../lib/worker-telemetry';
import { ActivityFailureInterceptor } from '../../workers/activity-failure-interceptor';
import type { ticketsDigestWorkflow } from '../../workflows';
import { sampleDigest } from '../support/fake-digest-activities';
import { createTemporalTestEnv } from '../support/temporal-env';
import { testDataConverter } from '../support/test-codec';
import { quietTemporalRuntime, sharedBundle } from '../support/workflow-harness';

const usage = { inputTokens: 100, outputTokens: 10, costUsd: 0.001, calls: 1 };


/** Fake digest activities with a record of what ran, how many batches ran at once at most, and scripted failures. */
function fakeDigestActivities(batchCount: number, options: { failBatchOnce?: number } = {}) {
  const calls = { prepare: 0, summarise: new Map<string, number>(), write: [] as string[][] };
  let inFlight = 0;
  let maxInFlight = 0;
  let failed = false;
  const batchKeys = Array.from({ length: batchCount }, (_, index) => `digests/test/abc/batch-${index}.txt`);
  const activities: TicketsDigestActivities = {
    async prepareTicketBatches() {
      calls.prepare++;
      return { ticketCount: 10, factsKey: 'digests/test/abc/facts.json', batchKeys, attempt: Context.current().info.attempt };
    },
    async summariseTicketBatch({ batchKey }) {
      calls.summarise.set(batchKey, (calls.summarise.get(batchKey) ?? 0) + 1);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        // Hold the slot until the other lanes had their chance to start: concurrency shows, whatever the timing.
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (options.failBatchOnce !== undefined && batchKey === batchKeys[options.failBatchOnce] && !failed) {
          failed = true;
          throw new ModelRequestInvalidError('the provider refused the prompt');
        }
        return { summaryKey: `${batchKey}.summary.json`, themes: 1, urgent: 0, usage, attempt: Context.current().info.attempt };
      } finally {
        inFlight--;
      }
    },
    async writeTicketDigest({ summaryKeys }) {
      calls.write.push(summaryKeys);
      return { digest: sampleDigest(summaryKeys.length), digestKey: 'digests/test/abc/digest.json', usage, attempt: 1 };
    },
  };
  return { activities, calls, batchKeys, maxInFlight: () => maxInFlight };
}

describe('the tickets.digest workflow (mocked activities, every task replayed)', () => {
  let env: TestWorkflowEnvironment;
  const telemetry = workerTelemetry();
  beforeAll(async () => {
    quietTemporalRuntime();
    env = await createTemporalTestEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  async function withWorker<T>(activities: TicketsDigestActivities, body: (taskQueue: string) => Promise<T>): Promise<T> {
    const taskQueue = `test-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await sharedBundle(),
      // The test environment's client encrypts with the test codec: the worker reads with the same one.
      dataConverter: testDataConverter(),
      activities,
      interceptors: { activity: [() => ({ inbound: new ActivityFailureInterceptor() })] },
      // The workflow reports metrics and spans through sinks; here they go to a registry nobody scrapes.
      sinks: telemetry.sinks,
      maxCachedWorkflows: 0,
    });
    return worker.runUntil(body(taskQueue));
  }

  const input = (overrides: Partial<TicketsDigestJobInput> = {}): TicketsDigestJobInput => ({
    tenantId: 'test',
    priority: 'bulk',
    document: { bucket: 'slowlane', key: 'inputs/test/abc', sha256: 'abc', contentType: 'text/plain', sizeBytes: 1000, fileName: 'tickets.jsonl' },
    reviewTimeoutMs: 60_000,
    deadLetterTimeoutMs: 60 * 60_000,
    ...overrides,
  });

  test('when there are more batches than lanes, then every batch is summarised once, never more than the bound at a time, and the digest is the result', async () => {
    const fake = fakeDigestActivities(TICKETS_DIGEST_BATCHING.parallelBatches * 2 + 1);
    const jobId = `tickets.digest:test:${randomUUID()}`;
    const state = await withWorker(fake.activities, (taskQueue) =>
      env.client.workflow.execute<typeof ticketsDigestWorkflow>('ticketsDigestWorkflow', {
        taskQueue,
        workflowId: jobId,
        args: [input({ jobId, submittedAt: new Date().toISOString() })],
      }),
    );
    assert.equal(state.status, 'completed');
    assert.equal(state.jobId, jobId);
    assert.equal(fake.calls.prepare, 1);
    assert.deepEqual([...fake.calls.summarise.values()], fake.batchKeys.map(() => 1));
    assert.ok(fake.maxInFlight() > 1, 'batches run side by side');
    assert.ok(fake.maxInFlight() <= TICKETS_DIGEST_BATCHING.parallelBatches, `at most ${TICKETS_DIGEST_BATCHING.parallelBatches} at once`);
    assert.deepEqual(fake.calls.write, [fake.batchKeys.map((key) => `${key}.summary.json`)], 'summaries in batch order');
    assert.deepEqual(state.result, sampleDigest(fake.batchKeys.length));
    assert.deepEqual(state.progress, { done: fake.batchKeys.length, total: fake.batchKeys.length });
    assert.equal(state.usage.calls, fake.batchKeys.length + 1);
  });

  test('when a batch fails for good, then the job parks naming it, and a retry summarises only that batch', async () => {
    const fake = fakeDigestActivities(5, { failBatchOnce: 2 });
    const jobId = `tickets.digest:test:${randomUUID()}`;
    const state = await withWorker(fake.activities, async (taskQueue) => {
      const handle = await env.client.workflow.start<typeof ticketsDigestWorkflow>('ticketsDigestWorkflow', {
        taskQueue,
        workflowId: jobId,
        args: [input({ jobId, submittedAt: new Date().toISOString() })],
      });
      let parked: JobState | undefined;
      for (let i = 0; i < 100 && parked?.status !== 'dead_letter'; i++) {
        parked = await handle.query(statusQuery);
        if (parked.status !== 'dead_letter') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(parked?.status, 'dead_letter', JSON.stringify(parked));
      assert.equal(parked?.step, 'summariseTicketBatch');
      assert.equal(parked?.error?.type, 'ModelRequestInvalidError');
      assert.match(parked?.error?.message ?? '', /^batch 3 of 5: /);
      assert.deepEqual(parked?.progress, { done: 4, total: 5 }, 'the other batches have their answers');
      await handle.executeUpdate(retryUpdate, { args: [{ operator: 'test' }] });
      return handle.result();
    });
    assert.equal(state.status, 'completed');
    assert.deepEqual(
      fake.batchKeys.map((key) => fake.calls.summarise.get(key)),
      [1, 1, 2, 1, 1],
      'only the failed batch ran again',
    );
    assert.equal(fake.calls.write.length, 1);
  });

  test('when a schedule starts the run (no jobId in the input), then the job is named by its own workflow id', async () => {
    const fake = fakeDigestActivities(1);
    const workflowId = `tickets.digest:test:schedule.nightly-2026-12-03T06:00:00Z`;
    const state = await withWorker(fake.activities, (taskQueue) =>
      env.client.workflow.execute<typeof ticketsDigestWorkflow>('ticketsDigestWorkflow', {
        taskQueue,
        workflowId: `${workflowId}-${randomUUID()}`,
        args: [input({ scheduleId: 'nightly' })],
      }),
    );
    assert.equal(state.status, 'completed');
    assert.ok(state.jobId.startsWith(workflowId), state.jobId);
  });
});
