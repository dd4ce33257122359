import type { ActivityStep } from '../common/job-steps';
import { createPushSubscriptions } from '../lib/push/push-subscriptions';
import { callbackUrlPolicy } from '../lib/callback-url';
import type { ActivityDeps } from './activity-deps';
import { modelStepDeps } from './activity-deps';
import { createCollectorActivities } from './batch-lane/collector-activities';
import { createCallActivities } from './call';
import { createDeleteJobProviderFiles } from './delete-job-provider-files';
import { createEnqueueBatchEntry, type FirstCalls } from './batch-lane/enqueue-batch-entry';
import { firstModelStepCall } from './call-model-on-text';
import { createDeliverWebhook } from './deliver-webhook';
import { createDocumentActivities } from './document';
import { ChunkTexts } from './document/chunk-texts';
import { firstChunkCall } from './document/process-document-chunk';
import { documentSummaryCall } from './document/summarize-document';
import { createInvoiceActivities } from './invoice';
import { CLASSIFY_PROMPT } from './invoice/classify-document';
import { EXTRACT_PROMPT } from './invoice/extract-invoice-fields';
import { createOrderScoreActivities } from './order-score';
import { scoreOrderCall } from './order-score/score-order';
import { createDeliverPush } from './push/deliver-push';
import { createFindPushTargets } from './push/find-push-targets';
import { createRetentionActivities } from './retention';
import { createTicketsDigestActivities } from './tickets-digest';
import { ticketBatchSummaryCall } from './tickets-digest/summarise-ticket-batch';
import { ticketDigestNarrativeCall } from './tickets-digest/write-ticket-digest';
import { validateReviewFields } from './validate-review-fields';

/**
 * The batch lane's activities: a job's side (enqueue; order.score's old pair, kept while an order.score that
 * started before the order-score-on-batch-lane-wait patch may still call it) and the collector's (submit, poll,
 * store). The steps read their batch answer themselves (`fromBatch`).
 */
export const BATCH_LANE_ACTIVITIES = [
  'enqueueBatchEntry',
  'enqueueScoreOrderBatch',
  'scoreOrderFromBatch',
  'writeBatchSegment',
  'submitMessageBatch',
  'messageBatchStatus',
  'storeMessageBatchResults',
  'answerBatchEntries',
  'cancelMessageBatch',
  'reconcileMessageBatches',
] as const;

/**
 * Every activity: each type's factory, and what the types share (webhooks, Web Push, the batch lane, retention, the
 * review check). A step runs the activity of its own name (a webhook delivery is no step of a job), and the
 * compiler holds every step to having one.
 */
export function createActivities(deps: ActivityDeps) {
  const pushSubscriptions = createPushSubscriptions(deps.store);
  return {
    ...createInvoiceActivities(deps),
    ...createOrderScoreActivities(deps),
    ...createDocumentActivities(deps),
    ...createTicketsDigestActivities(deps),
    ...createCallActivities(deps),
    // Every type that sends scans by id deletes them at its end (gateway/files).
    deleteJobProviderFiles: createDeleteJobProviderFiles({ store: deps.store, files: deps.providerFiles }),
    enqueueBatchEntry: createEnqueueBatchEntry(deps.batchLane, firstCallsOf(deps)),
    ...createCollectorActivities(deps.batchLane),
    deliverWebhook: createDeliverWebhook({ tenants: deps.config.tenants, policy: callbackUrlPolicy(deps.config) }),
    findPushTargets: createFindPushTargets(pushSubscriptions),
    deliverPush: createDeliverPush({ subscriptions: pushSubscriptions, push: deps.config.push, policy: callbackUrlPolicy(deps.config) }),
    validateReviewFields,
    ...createRetentionActivities(deps.retention),
  } satisfies Record<
    | ActivityStep
    | 'deliverWebhook'
    | 'findPushTargets'
    | 'deliverPush'
    | 'validateReviewFields'
    | 'deleteJobProviderFiles'
    | (typeof BATCH_LANE_ACTIVITIES)[number],
    (input: never) => Promise<unknown>
  >;
}

/** Every lane step's first call, built by the function its live activity sends it with, from the same clients. */
function firstCallsOf(deps: ActivityDeps): FirstCalls {
  const classify = modelStepDeps(deps, deps.config.anthropic.classifyModel);
  const extract = modelStepDeps(deps, deps.config.anthropic.extractModel);
  const digest = modelStepDeps(deps, deps.config.anthropic.digestModel);
  const document = { store: deps.store, summarizeModel: deps.config.document.summarizeModel, texts: new ChunkTexts(deps.store) };
  return {
    classifyDocument: (input) => firstModelStepCall(classify, input, CLASSIFY_PROMPT),
    extractInvoiceFields: (input) => firstModelStepCall(extract, input, EXTRACT_PROMPT),
    processDocumentChunk: (input) => firstChunkCall(document, input),
    summarizeDocument: (input) => documentSummaryCall(document, input),
    summariseTicketBatch: (input) => ticketBatchSummaryCall(digest, input),
    writeTicketDigest: (input) => ticketDigestNarrativeCall(digest, input),
    scoreOrder: async (input) => scoreOrderCall({ model: deps.config.anthropic.scoreModel }, input),
  };
}

/** Every activity a job workflow may call: the workflows type their proxies with this. */
export type JobActivities = ReturnType<typeof createActivities>;
