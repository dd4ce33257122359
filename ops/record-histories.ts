import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { messageBatchWorkflowId } from '../common/batch-lane';
import { InvalidDocumentError, ModelRateLimitedError, ModelRequestInvalidError, WebhookRejectedError } from '../common/errors';
import { abandonUpdate, retryUpdate, submitReviewUpdate } from '../common/messages';
import { historyToFileText } from './history-files';
import { replayJob } from './replay';
import { fakeActivities, sampleInvoice, validExtraction } from '../test/support/fake-activities';
import { scriptedBatchLane } from '../test/support/scripted-batch-lane';
import { createWorkflowHarness, type StartJob, waitForStatus, type WorkflowHarness } from '../test/support/workflow-harness';
import type { invoiceWorkflow } from '../workflows';

/**
 * Records the histories the replay tests run (`test/histories/*.json`): one per representative path through the
 * invoice workflow, produced by the real workflow code with scripted activities (no model, S3 or ledger needed).
 * Run it after a deliberate workflow change has shipped, so the files always hold histories that production
 * workers may meet: `npm run record-histories` (uses the test stack's Temporal server when `npm test` runs it,
 * else starts a dev server from the cached Temporal CLI). Names given as arguments record only those scenarios
 * (`npm run record-histories -- reviewed-by-signal`), leaving the other files as they are.
 */
const OUT_DIR = join(__dirname, '..', 'test', 'histories');

type Handle = WorkflowHandle<typeof invoiceWorkflow>;
type InvoiceActivities = ReturnType<typeof fakeActivities>['activities'];
interface Scenario {
  name: string;
  what: string;
  /** The scripted steps, or a function of the harness when they need its client (the batch lane's collector). */
  activities: { activities: InvoiceActivities } | ((harness: WorkflowHarness) => { activities: InvoiceActivities });
  /** Drives the job to its end and returns the run whose history is kept. */
  run(start: StartJob, harness: WorkflowHarness): Promise<Handle>;
}

const settle = async (handle: Handle) => {
  await handle.result().catch(() => undefined);
  return handle;
};
const lowConfidence = () => fakeActivities({ extractions: [validExtraction(sampleInvoice, 0.5)] });

/** The scripted lane of the scenario that ran last: its collector's and batches' histories are recorded too. */
let lastLane: ReturnType<typeof scriptedBatchLane> | undefined;

/** A bulk invoice whose classify and extract are answered in a batch (the scripted lane's real collector). */
function throughBatchLane(harness: WorkflowHarness): { activities: InvoiceActivities } {
  const lane = scriptedBatchLane(harness.env.client);
  lastLane = lane;
  return { activities: { ...fakeActivities().activities, ...lane.activities } };
}

const BULK_IN_THE_LANE = { priority: 'bulk' as const, batchLane: { deadlineMarginMs: 60_000, maxWaitMs: 120_000 } };

/** A workflow that is not a job (the lane's, a webhook delivery) whose history a scenario keeps; typed as the job's handle the recorder takes. */
function laneHandle(harness: WorkflowHarness, workflowId: string): Handle {
  return harness.env.client.workflow.getHandle(workflowId) as unknown as Handle;
}

/** The collector of the bulk invoice's model, after the invoice has settled. */
async function collectorAfterBulkInvoice(start: StartJob, harness: WorkflowHarness): Promise<Handle> {
  await settle(await start(BULK_IN_THE_LANE));
  return laneHandle(harness, (lastLane as NonNullable<typeof lastLane>).collectorId);
}

/** The first run of the bulk invoice's collector, whose event limit is set low: it ended by continuing as new. */
async function collectorFirstRunAfterBulkInvoice(start: StartJob, harness: WorkflowHarness): Promise<Handle> {
  await settle(await start(BULK_IN_THE_LANE));
  const collectorId = (lastLane as NonNullable<typeof lastLane>).collectorId;
  const latest = await harness.env.client.workflow.getHandle(collectorId).fetchHistory();
  const firstRunId = latest.events?.[0]?.workflowExecutionStartedEventAttributes?.firstExecutionRunId;
  if (!firstRunId) throw new Error('the collector has no first run');
  return harness.env.client.workflow.getHandle(collectorId, firstRunId) as unknown as Handle;
}

/** The batch that answered the bulk invoice, once it has ended. */
async function batchOfBulkInvoice(start: StartJob, harness: WorkflowHarness): Promise<Handle> {
  await settle(await start(BULK_IN_THE_LANE));
  const lane = lastLane as NonNullable<typeof lastLane>;
  const batchKey = [...lane.store.objects.keys()].map((key) => /^batch-lane\/batches\/([^/]+)\/intent\.json$/.exec(key)?.[1]).find(Boolean);
  if (!batchKey) throw new Error('no batch was submitted');
  const handle = laneHandle(harness, messageBatchWorkflowId('test-model', batchKey));
  await settle(handle);
  return handle;
}

const scenarios: Scenario[] = [
  {
    name: 'posted',
    what: 'a confident invoice posts without review',
    activities: fakeActivities(),
    run: async (start) => settle(await start()),
  },
  {
    // Kept beside `posted` (recorded before): search attributes written at each change of status only.
    name: 'posted-upserts-on-status-change',
    what: 'a confident invoice posts without review, writing its search attributes when its status changes',
    activities: fakeActivities(),
    run: async (start) => settle(await start()),
  },
  {
    name: 'posted-with-webhooks',
    what: 'a job with a callback URL starts a webhook delivery child at review and at the end',
    activities: lowConfidence(),
    run: async (start) => {
      const handle = await start({ callbackUrl: 'http://127.0.0.1:9/hook' });
      await waitForStatus(handle, 'awaiting_review');
      await handle.signal('reviewed', { fields: sampleInvoice, reviewer: 'sam' });
      return settle(handle);
    },
  },
  {
    name: 'reviewed-by-signal',
    what: 'the reviewed signal: fields that break the schema are ignored, valid ones post (each check a local activity)',
    activities: lowConfidence(),
    run: async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      await handle.signal('reviewed', { fields: { ...sampleInvoice, totalAmount: 'lots' }, reviewer: 'sam' });
      await handle.signal('reviewed', { fields: sampleInvoice, reviewer: 'sam' });
      return settle(handle);
    },
  },
  {
    name: 'reviewed-approved',
    what: 'low confidence waits for review; the submitReview Update approves edited fields',
    activities: lowConfidence(),
    run: async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      await handle.executeUpdate(submitReviewUpdate, {
        args: [{ decision: 'approve', fields: { ...sampleInvoice, totalAmount: 125.5 }, reviewer: 'rita' }],
      });
      return settle(handle);
    },
  },
  {
    name: 'reviewed-rejected',
    what: 'a reviewer rejects through the rejected signal',
    activities: lowConfidence(),
    run: async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      await handle.signal('rejected', { reason: 'duplicate', reviewer: 'rita' });
      return settle(handle);
    },
  },
  {
    name: 'posted-through-batch-lane',
    what: "a bulk invoice's classify and extract take their first answers from a Message Batch (batch-lane-steps)",
    activities: throughBatchLane,
    run: async (start) => settle(await start(BULK_IN_THE_LANE)),
  },
  {
    name: 'batch-collector-gathered',
    what: "the model's collector (still running) after a bulk invoice's two entries: segments written, each batch handed to its own workflow",
    activities: throughBatchLane,
    run: collectorAfterBulkInvoice,
  },
  {
    // Kept beside `batch-collector-gathered` (recorded before): the laneWait query and the waits that wake on a new build.
    name: 'batch-collector-answers-lane-wait',
    what: "the model's collector after a bulk invoice's two entries, answering how long its oldest entry waits",
    activities: throughBatchLane,
    run: collectorAfterBulkInvoice,
  },
  {
    // Beside `batch-collector-answers-lane-wait`: a run ends at its event limit, carrying on what still arrives.
    name: 'batch-collector-carries-late-entries',
    what: "a bulk invoice's collector whose first run reaches its event limit and continues as new",
    activities: (harness) => {
      const lane = scriptedBatchLane(harness.env.client, { historyEventsLimit: 40 });
      lastLane = lane;
      return { activities: { ...fakeActivities().activities, ...lane.activities } };
    },
    run: collectorFirstRunAfterBulkInvoice,
  },
  {
    name: 'message-batch-answered',
    what: 'one batch from its submission through its poll, its results stored and its job answered',
    activities: throughBatchLane,
    run: batchOfBulkInvoice,
  },
  {
    // Kept beside `message-batch-answered` (recorded before): the batch is started with its opening time.
    name: 'message-batch-answered-with-opened-at',
    what: 'one batch, started with the time its collector opened it, from its submission to its job answered',
    activities: throughBatchLane,
    run: batchOfBulkInvoice,
  },
  {
    name: 'webhook-given-up',
    what: "a job's webhook delivery whose receiver answers 410 Gone: counted as given up, the run fails for an operator to redeliver",
    activities: (() => {
      const base = fakeActivities().activities;
      const deliverWebhook: typeof base.deliverWebhook = () =>
        Promise.reject(ApplicationFailure.nonRetryable('the receiver answered 410 Gone', WebhookRejectedError.name));
      return { activities: { ...base, deliverWebhook } };
    })(),
    run: async (start, harness) => {
      const job = await settle(await start({ callbackUrl: 'http://127.0.0.1:9/hook' }));
      const events = (await job.fetchHistory()).events ?? [];
      const deliveryId = events.find((event) => event.childWorkflowExecutionStartedEventAttributes)?.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId;
      if (!deliveryId) throw new Error('the job started no webhook delivery');
      const handle = laneHandle(harness, deliveryId);
      await settle(handle);
      return handle;
    },
  },
  {
    name: 'rejected-not-an-invoice',
    what: 'classification says it is not an invoice',
    activities: fakeActivities({ documentType: 'other' }),
    run: async (start) => settle(await start()),
  },
  {
    name: 'review-expired',
    what: 'nobody reviews before the deadline',
    activities: lowConfidence(),
    run: async (start) => settle(await start({ reviewTimeoutMs: 1_500 })),
  },
  {
    name: 'schema-invalid-to-review',
    what: 'three schema-invalid answers send the raw output to review',
    activities: fakeActivities({
      extractions: Array.from({ length: 3 }, () => ({
        outcome: 'schema_invalid' as const,
        rawOutput: '{"invoice":{"totalAmount":"12,50"}}',
        errors: ['/invoice/totalAmount must be number,null'],
        usage: { inputTokens: 10, outputTokens: 5, costUsd: 0, calls: 1 },
        attempt: 1,
      })),
    }),
    run: async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'awaiting_review');
      await handle.signal('rejected', { reason: 'unreadable', reviewer: 'rita' });
      return settle(handle);
    },
  },
  {
    name: 'rate-limited-then-posted',
    what: "a 429 is retried after the provider's retry-after",
    activities: fakeActivities({ classifyDocument: [new ModelRateLimitedError('429', { retryAfterMs: 1_000 })] }),
    run: async (start) => settle(await start()),
  },
  {
    name: 'dead-lettered-retried',
    what: 'extractInvoiceFields fails for good, the job parks, an operator retries and it posts',
    activities: fakeActivities({
      extractions: [new ModelRequestInvalidError('provider answered 400'), validExtraction(sampleInvoice, 0.97)],
    }),
    run: async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'dead_letter');
      await handle.executeUpdate(retryUpdate, { args: [{ operator: 'ops', reason: 'provider fixed' }] });
      return settle(handle);
    },
  },
  {
    name: 'dead-lettered-abandoned',
    what: 'an unreadable document parks and an operator abandons it: the workflow fails',
    activities: fakeActivities({ extractText: [new InvalidDocumentError('the PDF is encrypted')] }),
    run: async (start) => {
      const handle = await start();
      await waitForStatus(handle, 'dead_letter');
      await handle.executeUpdate(abandonUpdate, { args: [{ operator: 'ops', reason: 'customer sends a new copy' }] });
      return settle(handle);
    },
  },
  {
    name: 'dead-letter-expired',
    what: 'nobody decides about a dead letter before its wait expires',
    activities: fakeActivities({ ledgerFailures: [new ModelRequestInvalidError('ledger said no')] }),
    run: async (start) => settle(await start({ deadLetterTimeoutMs: 1_500 })),
  },
  {
    name: 'abandoned-then-reset',
    what: 'an abandoned job is reset to its failed step by the replay tool and posts (the run after the reset)',
    activities: fakeActivities({
      extractions: [new ModelRequestInvalidError('provider answered 400'), validExtraction(sampleInvoice, 0.97)],
    }),
    run: async (start, harness) => {
      const handle = await start();
      await waitForStatus(handle, 'dead_letter');
      await handle.executeUpdate(abandonUpdate, { args: [{ operator: 'ops' }] });
      await handle.result().catch(() => undefined);
      const outcome = await replayJob(harness.env.client, handle.workflowId, {
        namespace: harness.env.namespace ?? 'default',
        operator: 'record-histories',
        reason: 'provider fixed',
      });
      if (outcome.action !== 'reset' || !outcome.runId) throw new Error(`reset failed: ${JSON.stringify(outcome)}`);
      return settle(harness.env.client.workflow.getHandle(handle.workflowId, outcome.runId));
    },
  },
];

async function main(): Promise<void> {
  const names = process.argv.slice(2);
  const unknown = names.filter((name) => !scenarios.some((scenario) => scenario.name === name));
  if (unknown.length > 0) throw new Error(`no such scenario: ${unknown.join(', ')}`);
  const chosen = names.length > 0 ? scenarios.filter((scenario) => names.includes(scenario.name)) : scenarios;
  const harness = await createWorkflowHarness();
  await mkdir(OUT_DIR, { recursive: true });
  try {
    for (const scenario of chosen) {
      const { activities } = typeof scenario.activities === 'function' ? scenario.activities(harness) : scenario.activities;
      const handle = await harness.withWorker(activities, (start) => scenario.run(start, harness));
      const history = await handle.fetchHistory();
      const file = join(OUT_DIR, `${scenario.name}.json`);
      await writeFile(file, historyToFileText(history));
      console.log(`${scenario.name.padEnd(26)} ${String(history.events?.length ?? 0).padStart(3)} events  ${scenario.what}`);
    }
  } finally {
    await harness.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
