import type { EmbeddingsGateway } from '../gateway/embeddings/embeddings-call';
import type { ModelGateway } from '../gateway/model-call';
import type { ActivityStep } from '../common/job-steps';
import { callbackUrlPolicy } from '../lib/callback-url';
import type { Config } from '../lib/config';
import type { ObjectStore } from '../lib/object-store';
import type { BatchLaneDeps } from './batch-lane/batch-lane-deps';
import { createCollectorActivities } from './batch-lane/collector-activities';
import { createEnqueueBatchEntry } from './batch-lane/enqueue-batch-entry';
import { firstModelStepCall, type ModelStepDeps } from './call-model-on-text';
import { CLASSIFY_PROMPT, createClassifyDocument } from './invoice/classify-document';
import { createDeliverWebhook } from './deliver-webhook';
import { createDeliverPush } from './push/deliver-push';
import { createFindPushTargets } from './push/find-push-targets';
import { createPushSubscriptions } from '../lib/push/push-subscriptions';
import { createEmbedDocumentChunks } from './document/embed-document-chunks';
import { createProcessDocumentChunk, firstChunkCall } from './document/process-document-chunk';
import { createReadDocumentPages } from './document/read-document-pages';
import { createSummarizeDocument, documentSummaryCall } from './document/summarize-document';
import { createWriteDocumentChunks } from './document/write-document-chunks';
import { createExtractInvoiceFields, EXTRACT_PROMPT } from './invoice/extract-invoice-fields';
import { createExtractText } from './invoice/extract-text';
import { createRetentionActivities } from './retention';
import type { RetentionDeps } from './retention/retention-deps';
import { createScoreOrder, scoreOrderCall } from './order-score/score-order';
import { createScoreOrderBatchActivities } from './order-score/score-order-batch';
import { createPostInvoiceToLedger } from './invoice/post-invoice-to-ledger';
import { createTicketsDigestActivities } from './tickets-digest';
import { ticketBatchSummaryCall } from './tickets-digest/summarise-ticket-batch';
import { ticketDigestNarrativeCall } from './tickets-digest/write-ticket-digest';
import { validateReviewFields } from './validate-review-fields';

export interface ActivityDeps {
  store: ObjectStore;
  gateway: ModelGateway;
  embeddings: EmbeddingsGateway;
  config: Pick<Config, 'anthropic' | 'document' | 'embeddings' | 'ledger' | 'tenants' | 'clients' | 'deployment' | 'push'>;
  /** The Message Batches lane; without it the lane's activities refuse and jobs take the live path. */
  batchLane?: BatchLaneDeps;
  /** The retention sweep's clients; without them its activities refuse (workers/main.ts always gives them). */
  retention?: RetentionDeps;
}

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
 * Every activity, built from injected clients so tests can hand in their own. A step runs the activity of its own
 * name (a webhook delivery is no step of a job), and the compiler holds every step to having one.
 */
export function createActivities(deps: ActivityDeps) {
  return { ...createInvoiceActivities(deps), ...createDocumentActivities(deps), ...createRetentionActivities(deps.retention) } satisfies Record<
    ActivityStep | 'deliverWebhook' | 'findPushTargets' | 'deliverPush' | 'validateReviewFields' | (typeof BATCH_LANE_ACTIVITIES)[number],
    (input: never) => Promise<unknown>
  >;
}

/** The steps of the types that run a few steps (invoice, order.score, tickets.digest), and what every type shares (webhooks, Web Push). */
export function createInvoiceActivities(deps: ActivityDeps) {
  const classify = modelStepDeps(deps, deps.config.anthropic.classifyModel);
  const extract = modelStepDeps(deps, deps.config.anthropic.extractModel);
  const document = { store: deps.store, summarizeModel: deps.config.document.summarizeModel };
  const digest = modelStepDeps(deps, deps.config.anthropic.digestModel);
  const pushSubscriptions = createPushSubscriptions(deps.store);
  const score = {
    gateway: deps.gateway,
    model: deps.config.anthropic.scoreModel,
    repairTries: deps.config.anthropic.repairTries,
    ...(deps.batchLane ? { lane: deps.batchLane } : {}),
  };
  return {
    extractText: createExtractText({ store: deps.store, maxScannedPages: deps.config.anthropic.scannedMaxPages }),
    classifyDocument: createClassifyDocument(classify),
    extractInvoiceFields: createExtractInvoiceFields(extract),
    // Every lane step's first call, built by the function its live activity uses.
    enqueueBatchEntry: createEnqueueBatchEntry(deps.batchLane, {
      classifyDocument: (input) => firstModelStepCall(classify, input, CLASSIFY_PROMPT),
      extractInvoiceFields: (input) => firstModelStepCall(extract, input, EXTRACT_PROMPT),
      processDocumentChunk: (input) => firstChunkCall(document, input),
      summarizeDocument: (input) => documentSummaryCall(document, input),
      summariseTicketBatch: (input) => ticketBatchSummaryCall(digest, input),
      writeTicketDigest: (input) => ticketDigestNarrativeCall(digest, input),
      scoreOrder: async (input) => scoreOrderCall(score, input),
    }),
    postInvoiceToLedger: createPostInvoiceToLedger({ ledger: deps.config.ledger }),
    scoreOrder: createScoreOrder(score),
    ...createScoreOrderBatchActivities({ ...score, lane: deps.batchLane }),
    ...createCollectorActivities(deps.batchLane),
    deliverWebhook: createDeliverWebhook({
      tenants: deps.config.tenants,
      policy: callbackUrlPolicy(deps.config),
    }),
    findPushTargets: createFindPushTargets(pushSubscriptions),
    deliverPush: createDeliverPush({ subscriptions: pushSubscriptions, push: deps.config.push, policy: callbackUrlPolicy(deps.config) }),
    validateReviewFields,
    ...createTicketsDigestActivities(digest),
  };
}

function modelStepDeps(deps: ActivityDeps, model: string): ModelStepDeps {
  return {
    store: deps.store,
    gateway: deps.gateway,
    model,
    repairTries: deps.config.anthropic.repairTries,
    ...(deps.batchLane ? { lane: deps.batchLane } : {}),
  };
}

export type InvoiceActivities = ReturnType<typeof createInvoiceActivities>;

/** The `document` job type's steps (workflows/document/). */
export function createDocumentActivities(deps: Pick<ActivityDeps, 'store' | 'gateway' | 'embeddings' | 'config' | 'batchLane'>) {
  const { summarizeModel, ...settings } = deps.config.document;
  const lane = deps.batchLane ? { lane: deps.batchLane } : {};
  return {
    readDocumentPages: createReadDocumentPages({ store: deps.store, settings }),
    processDocumentChunk: createProcessDocumentChunk({
      store: deps.store,
      gateway: deps.gateway,
      embeddings: deps.embeddings,
      summarizeModel,
      ...lane,
    }),
    embedDocumentChunks: createEmbedDocumentChunks({
      store: deps.store,
      embeddings: deps.embeddings,
      limits: { maxInputs: deps.config.embeddings.maxInputsPerRequest, maxTokens: deps.config.embeddings.maxTokensPerRequest },
    }),
    writeDocumentChunks: createWriteDocumentChunks({ store: deps.store }),
    summarizeDocument: createSummarizeDocument({ store: deps.store, gateway: deps.gateway, summarizeModel, ...lane }),
  };
}

export type DocumentActivities = ReturnType<typeof createDocumentActivities>;
/** Every activity a job workflow may call: the workflows type their proxies with this. */
export type JobActivities = ReturnType<typeof createActivities>;
