import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { Worker } from '@temporalio/worker';
import type { ExtractInvoiceFieldsResult } from '../../activities/invoice/contracts';
import type { FromBatch } from '../../common/batch-lane';
import type { DocumentJobInput, DocumentJobState } from '../../common/job-types/document/document-job';
import { workerTelemetry } from '../../lib/worker-telemetry';
import { ActivityFailureInterceptor } from '../../workers/activity-failure-interceptor';
import type { documentWorkflow, ticketsDigestWorkflow } from '../../workflows';
import type { TicketsDigestActivities } from '../../activities/tickets-digest';
import type { TicketsDigestJobInput } from '../../common/job-types/tickets-digest/tickets-digest-job';
import type { JobState } from '../../common/job';
import { Context } from '@temporalio/activity';
import { ModelRequestInvalidError } from '../../common/errors';
import type { WorkflowHandle } from '@temporalio/client';
import { retryUpdate, statusQuery } from '../../common/messages';
import { fakeActivities, sampleInvoice, validExtraction, type FakeActivities } from '../support/fake-activities';
import { sampleDigest } from '../support/fake-digest-activities';
import { createProcessDocumentChunks } from '../../activities/document/process-document-chunks';
import { fakeDocumentActivities } from '../support/fake-document-activities';
import { liveUsage, usageFor } from '../support/lane-usage';
import { scriptedBatchLane, type ScriptedLaneOptions } from '../support/scripted-batch-lane';
import { testDataConverter } from '../support/test-codec';
import { createWorkflowHarness, sharedBundle, type WorkflowHarness } from '../support/workflow-harness';

const bulk = { priority: 'bulk' as const, batchLane: { deadlineMarginMs: 60_000, maxWaitMs: 120_000 } };

const invalidExtraction: ExtractInvoiceFieldsResult = {
  outcome: 'schema_invalid',
  rawOutput: '{"invoice":{"totalAmount":"12,50"}}',
  errors: ['/invoice/totalAmount must be number,null'],
  usage: liveUsage,
  attempt: 1,
};

/**
 * The invoice's fake steps with the scripted lane: each model step records whether it got a batch answer
 * (`fromBatch`) and counts its usage in the lane it took, as the real steps do.
 */
function invoiceWithLane(harness: WorkflowHarness, lane: ScriptedLaneOptions, extractions?: ExtractInvoiceFieldsResult[]) {
  const fake = fakeActivities(extractions ? { extractions } : {});
  const scripted = scriptedBatchLane(harness.env.client, lane);
  const asked: Array<{ step: string; fromBatch: boolean }> = [];
  const activities: FakeActivities = {
    ...fake.activities,
    ...scripted.activities,
    async classifyDocument(input) {
      asked.push({ step: 'classifyDocument', fromBatch: input.fromBatch !== undefined });
      return { ...(await fake.activities.classifyDocument(input)), usage: usageFor(input) };
    },
    async extractInvoiceFields(input) {
      asked.push({ step: 'extractInvoiceFields', fromBatch: input.fromBatch !== undefined });
      return { ...(await fake.activities.extractInvoiceFields(input)), usage: usageFor(input) };
    },
  };
  return { activities, asked, scripted, fake };
}

describe('the batch lane for the invoice and document steps, with scripted activities', () => {
  let harness: WorkflowHarness;
  beforeAll(async () => {
    harness = await createWorkflowHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  test('when a bulk invoice runs, then classify and extract each take their first answer from a batch and the job counts both calls at the batch price', async () => {
    const lane = invoiceWithLane(harness, {});
    const state = await harness.withWorker(lane.activities, async (start) => (await start(bulk)).result());
    assert.equal(state.status, 'posted');
    assert.deepEqual(lane.scripted.enqueued.map((entry) => entry.step), ['classifyDocument', 'extractInvoiceFields']);
    assert.deepEqual(lane.asked, [
      { step: 'classifyDocument', fromBatch: true },
      { step: 'extractInvoiceFields', fromBatch: true },
    ]);
    assert.equal(state.usage.byLane?.batch?.calls, 2);
    assert.equal(state.usage.byLane?.live, undefined);
  });

  test('when the classify entry expires, then classify asks live and extract still takes the lane', async () => {
    const lane = invoiceWithLane(harness, { outcomeOf: (step) => (step === 'classifyDocument' ? 'expired' : 'succeeded') });
    const state = await harness.withWorker(lane.activities, async (start) => (await start(bulk)).result());
    assert.equal(state.status, 'posted');
    assert.deepEqual(lane.asked, [
      { step: 'classifyDocument', fromBatch: false },
      { step: 'extractInvoiceFields', fromBatch: true },
    ]);
    assert.equal(state.usage.byLane?.batch?.calls, 1);
    assert.equal(state.usage.byLane?.live?.calls, 1);
  });

  test('when the batch cannot be submitted, then both steps ask live', async () => {
    const lane = invoiceWithLane(harness, { failSubmit: true });
    const state = await harness.withWorker(lane.activities, async (start) => (await start(bulk)).result());
    assert.equal(state.status, 'posted');
    assert.deepEqual(lane.asked.map((ask) => ask.fromBatch), [false, false]);
    assert.equal(lane.scripted.enqueued.length, 2);
    assert.deepEqual([...lane.scripted.released].sort(), lane.scripted.enqueued.map((entry) => entry.customId).sort(), 'no batch billed them: their holds go back');
  });

  test('when the deadline is already inside the margin, then the job asks live at once without enqueueing', async () => {
    const lane = invoiceWithLane(harness, {});
    const deadline = new Date(Date.now() + 30_000).toISOString();
    const state = await harness.withWorker(lane.activities, async (start) => (await start({ ...bulk, deadline })).result());
    assert.equal(state.status, 'posted');
    assert.deepEqual(lane.scripted.enqueued, []);
    assert.deepEqual(lane.asked.map((ask) => ask.fromBatch), [false, false]);
  });

  test('when the batch does not end before the deadline margin, then the job stops waiting and asks live', async () => {
    const lane = invoiceWithLane(harness, { neverEnds: true });
    // 66 s to the deadline with a 60 s margin: each step waits ~6 s at most, then asks live (a loaded machine
    // reaches classify within that, so the job still enters the lane).
    const deadline = new Date(Date.now() + 66_000).toISOString();
    const state = await harness.withWorker(lane.activities, async (start) => (await start({ ...bulk, deadline })).result());
    assert.equal(state.status, 'posted');
    assert.ok(lane.scripted.enqueued.length >= 1, 'classify waited in the lane');
    assert.deepEqual(lane.asked.map((ask) => ask.fromBatch), [false, false]);
  });

  test('when the batch’s extraction fails the schema, then the next try asks live and its valid answer is posted', async () => {
    const lane = invoiceWithLane(harness, {}, [invalidExtraction, validExtraction(sampleInvoice, 0.97)]);
    const state = await harness.withWorker(lane.activities, async (start) => (await start(bulk)).result());
    assert.equal(state.status, 'posted');
    assert.deepEqual(lane.asked, [
      { step: 'classifyDocument', fromBatch: true },
      { step: 'extractInvoiceFields', fromBatch: true },
      { step: 'extractInvoiceFields', fromBatch: false },
    ]);
    assert.equal(lane.scripted.enqueued.length, 2, 'the retry is not enqueued again');
  });

  test('when an interactive invoice runs, then it never enqueues', async () => {
    const lane = invoiceWithLane(harness, {});
    const state = await harness.withWorker(lane.activities, async (start) => (await start({ ...bulk, priority: 'interactive' })).result());
    assert.equal(state.status, 'posted');
    assert.deepEqual(lane.scripted.enqueued, []);
  });

  describe('a document', () => {
    async function runDocument(
      options: ScriptedLaneOptions & { chunks: number; failing?: Map<number, number>; whileRunning?: (handle: WorkflowHandle<typeof documentWorkflow>) => Promise<void> },
      overrides: Partial<DocumentJobInput> = {},
    ) {
      const fake = fakeDocumentActivities({ chunks: options.chunks, ...(options.failing ? { failing: options.failing } : {}) });
      const scripted = scriptedBatchLane(harness.env.client, options);
      const asked: Array<{ step: string; index?: number; fromBatch: boolean }> = [];
      const activities = {
        ...fake.activities,
        ...scripted.activities,
        async processDocumentChunk(input: Parameters<typeof fake.activities.processDocumentChunk>[0] & FromBatch) {
          asked.push({ step: 'processDocumentChunk', index: input.index, fromBatch: input.fromBatch !== undefined });
          return { ...(await fake.activities.processDocumentChunk(input)), usage: usageFor(input) };
        },
        async summarizeDocument(input: Parameters<typeof fake.activities.summarizeDocument>[0] & FromBatch) {
          asked.push({ step: 'summarizeDocument', fromBatch: input.fromBatch !== undefined });
          return { ...(await fake.activities.summarizeDocument(input)), usage: usageFor(input) };
        },
        // A group whose chunks ask live runs them in one step, each as the step above.
        processDocumentChunks: (input: Parameters<typeof fake.activities.processDocumentChunks>[0]) =>
          createProcessDocumentChunks((chunk) => activities.processDocumentChunk(chunk))(input),
      };
      const taskQueue = `test-${randomUUID()}`;
      const worker = await Worker.create({
        connection: harness.env.nativeConnection,
        namespace: harness.env.namespace ?? 'default',
        taskQueue,
        workflowBundle: await sharedBundle(),
        dataConverter: testDataConverter(),
        activities,
        interceptors: { activity: [() => ({ inbound: new ActivityFailureInterceptor() })] },
        sinks: workerTelemetry().sinks,
        maxCachedWorkflows: 0,
      });
      const jobId = `document:test:${randomUUID()}`;
      const input: DocumentJobInput = {
        jobId,
        tenantId: 'test',
        ...bulk,
        document: { bucket: 'slowlane', key: 'inputs/test/abc', sha256: 'abc', contentType: 'application/pdf', sizeBytes: 1000, fileName: 'report.pdf' },
        settings: { chunksPerGroup: 2, parallelGroups: 2, parallelChunks: 2 },
        reviewTimeoutMs: 60 * 60 * 1000,
        deadLetterTimeoutMs: 60 * 60 * 1000,
        submittedAt: new Date().toISOString(),
        ...overrides,
      };
      const state = (await worker.runUntil(async () => {
        const handle = await harness.env.client.workflow.start<typeof documentWorkflow>('documentWorkflow', { taskQueue, workflowId: jobId, args: [input] });
        await options.whileRunning?.(handle);
        return handle.result();
      })) as DocumentJobState;
      return { state, asked, scripted };
    }

    test('when a bulk document runs, then every chunk’s summary and the reduce take their first answer from a batch', async () => {
      const { state, asked, scripted } = await runDocument({ chunks: 5 });
      assert.equal(state.status, 'completed');
      const chunkAsks = asked.filter((ask) => ask.step === 'processDocumentChunk');
      assert.deepEqual(chunkAsks.map((ask) => ask.index).sort(), [0, 1, 2, 3, 4]);
      assert.ok(asked.every((ask) => ask.fromBatch));
      assert.deepEqual(asked.at(-1), { step: 'summarizeDocument', fromBatch: true });
      assert.equal(scripted.enqueued.filter((entry) => entry.step === 'processDocumentChunk').length, 5);
      assert.equal(state.usage.byLane?.batch?.calls, 6);
      assert.equal(state.usage.byLane?.live, undefined);
    });

    test('when the chunk entries error, then the chunks ask live and the reduce still takes the lane', async () => {
      const { state, asked } = await runDocument({ chunks: 3, outcomeOf: (step) => (step === 'processDocumentChunk' ? 'errored' : 'succeeded') });
      assert.equal(state.status, 'completed');
      assert.deepEqual(
        asked.filter((ask) => ask.step === 'processDocumentChunk').map((ask) => ask.fromBatch),
        [false, false, false],
      );
      assert.deepEqual(asked.at(-1), { step: 'summarizeDocument', fromBatch: true });
      assert.equal(state.usage.byLane?.live?.calls, 3);
      assert.equal(state.usage.byLane?.batch?.calls, 1);
    });

    test('when the deadline is inside the margin, then the chunks and the reduce ask live at once', async () => {
      const { state, asked, scripted } = await runDocument({ chunks: 2 }, { deadline: new Date(Date.now() + 30_000).toISOString() });
      assert.equal(state.status, 'completed');
      assert.deepEqual(scripted.enqueued, []);
      assert.equal(asked.length, 3);
      assert.ok(asked.every((ask) => !ask.fromBatch));
    });

    test('when a batch-answered chunk fails for good and the operator retries, then the rerun asks live', async () => {
      const { state, asked, scripted } = await runDocument({
        chunks: 2,
        failing: new Map([[1, 1]]),
        whileRunning: async (handle) => {
          for (let tries = 0; (await handle.query(statusQuery)).status !== 'dead_letter'; tries++) {
            if (tries > 300) throw new Error('the job never parked');
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          await handle.executeUpdate(retryUpdate, { args: [{ operator: 'olga' }] });
        },
      });
      assert.equal(state.status, 'completed');
      assert.deepEqual(asked.filter((ask) => ask.index === 1).map((ask) => ask.fromBatch), [true, false]);
      assert.equal(scripted.enqueued.filter((entry) => entry.step === 'processDocumentChunk').length, 2, 'the rerun is not enqueued');
    });
  });
  describe('a tickets digest', () => {

    /**
     * Fake digest steps with the scripted lane: each model step records whether it got a batch answer and counts its
     * usage in the lane it took; `failForGood` fails that batch's first run for good (the job parks on it).
     */
    async function runDigest(
      options: ScriptedLaneOptions & { batches: number; failForGood?: number; whileRunning?: (handle: WorkflowHandle<typeof ticketsDigestWorkflow>) => Promise<void> },
    ) {
      const scripted = scriptedBatchLane(harness.env.client, options);
      const asked: Array<{ step: string; index?: number; fromBatch: boolean }> = [];
      const batchKeys = Array.from({ length: options.batches }, (_, index) => `digests/test/abc/batch-${index}.txt`);
      const digestActivities: TicketsDigestActivities = {
        async prepareTicketBatches() {
          return { ticketCount: 10, factsKey: 'digests/test/abc/facts.json', batchKeys, attempt: 1 };
        },
        async summariseTicketBatch(input) {
          const index = batchKeys.indexOf(input.batchKey);
          asked.push({ step: 'summariseTicketBatch', index, fromBatch: input.fromBatch !== undefined });
          if (index === options.failForGood && asked.filter((ask) => ask.index === index).length === 1) {
            throw new ModelRequestInvalidError('the provider refused the prompt');
          }
          return { summaryKey: `${input.batchKey}.summary.json`, themes: 1, urgent: 0, usage: usageFor(input), attempt: Context.current().info.attempt };
        },
        async writeTicketDigest(input) {
          asked.push({ step: 'writeTicketDigest', fromBatch: input.fromBatch !== undefined });
          return { digest: sampleDigest(input.summaryKeys.length), digestKey: 'digests/test/abc/digest.json', usage: usageFor(input), attempt: 1 };
        },
      };
      const taskQueue = `test-${randomUUID()}`;
      const worker = await Worker.create({
        connection: harness.env.nativeConnection,
        namespace: harness.env.namespace ?? 'default',
        taskQueue,
        workflowBundle: await sharedBundle(),
        dataConverter: testDataConverter(),
        activities: { ...digestActivities, ...scripted.activities },
        interceptors: { activity: [() => ({ inbound: new ActivityFailureInterceptor() })] },
        sinks: workerTelemetry().sinks,
        maxCachedWorkflows: 0,
      });
      const jobId = `tickets.digest:test:${randomUUID()}`;
      const input: TicketsDigestJobInput = {
        jobId,
        tenantId: 'test',
        ...bulk,
        document: { bucket: 'slowlane', key: 'inputs/test/abc', sha256: 'abc', contentType: 'text/plain', sizeBytes: 1000, fileName: 'tickets.jsonl' },
        reviewTimeoutMs: 60 * 60 * 1000,
        deadLetterTimeoutMs: 60 * 60 * 1000,
        submittedAt: new Date().toISOString(),
      };
      const state = (await worker.runUntil(async () => {
        const handle = await harness.env.client.workflow.start<typeof ticketsDigestWorkflow>('ticketsDigestWorkflow', { taskQueue, workflowId: jobId, args: [input] });
        await options.whileRunning?.(handle);
        return handle.result();
      })) as JobState;
      return { state, asked, scripted };
    }

    test('when a bulk digest runs, then every batch’s summary and the narrative take their first answer from a batch', async () => {
      const { state, asked, scripted } = await runDigest({ batches: 5 });
      assert.equal(state.status, 'completed');
      const summaries = asked.filter((ask) => ask.step === 'summariseTicketBatch');
      assert.deepEqual(summaries.map((ask) => ask.index).sort(), [0, 1, 2, 3, 4]);
      assert.ok(asked.every((ask) => ask.fromBatch));
      assert.deepEqual(asked.at(-1), { step: 'writeTicketDigest', fromBatch: true });
      assert.deepEqual(
        scripted.enqueued.map((entry) => entry.step),
        [...Array.from({ length: 5 }, () => 'summariseTicketBatch'), 'writeTicketDigest'],
      );
      assert.equal(state.usage.byLane?.batch?.calls, 6);
      assert.equal(state.usage.byLane?.live, undefined);
    });

    test('when the batch summaries’ entries error, then those calls ask live and the narrative still takes the lane', async () => {
      const { state, asked } = await runDigest({ batches: 3, outcomeOf: (step) => (step === 'summariseTicketBatch' ? 'errored' : 'succeeded') });
      assert.equal(state.status, 'completed');
      assert.deepEqual(
        asked.filter((ask) => ask.step === 'summariseTicketBatch').map((ask) => ask.fromBatch),
        [false, false, false],
      );
      assert.deepEqual(asked.at(-1), { step: 'writeTicketDigest', fromBatch: true });
      assert.equal(state.usage.byLane?.live?.calls, 3);
      assert.equal(state.usage.byLane?.batch?.calls, 1);
    });

    test('when a batch-answered summary fails for good and the operator retries, then only that batch reruns, live and not enqueued again', async () => {
      const { state, asked, scripted } = await runDigest({
        batches: 3,
        failForGood: 1,
        whileRunning: async (handle) => {
          for (let tries = 0; (await handle.query(statusQuery)).status !== 'dead_letter'; tries++) {
            if (tries > 300) throw new Error('the job never parked');
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          await handle.executeUpdate(retryUpdate, { args: [{ operator: 'olga' }] });
        },
      });
      assert.equal(state.status, 'completed');
      assert.deepEqual(asked.filter((ask) => ask.index === 1).map((ask) => ask.fromBatch), [true, false]);
      assert.deepEqual(asked.filter((ask) => ask.index === 0).map((ask) => ask.fromBatch), [true]);
      assert.equal(scripted.enqueued.filter((entry) => entry.step === 'summariseTicketBatch').length, 3, 'the rerun is not enqueued');
      assert.deepEqual(asked.at(-1), { step: 'writeTicketDigest', fromBatch: true });
    });
  });
});
