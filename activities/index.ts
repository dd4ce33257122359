import type { EmbeddingsGateway } from '../gateway/embeddings/embeddings-call';
import type { ModelGateway } from '../gateway/model-call';
import type { ActivityStep } from '../common/job-steps';
import type { Config } from '../lib/config';
import type { ObjectStore } from '../lib/object-store';
import type { BatchLaneDeps } from './batch-lane/batch-lane-deps';
import { createCollectorActivities } from './batch-lane/collector-activities';
import { createClassifyDocument } from './classify-document';
import { createDeliverWebhook } from './deliver-webhook';
import { createProcessDocumentChunk } from './document/process-document-chunk';
import { createReadDocumentPages } from './document/read-document-pages';
import { createSummarizeDocument } from './document/summarize-document';
import { createWriteDocumentChunks } from './document/write-document-chunks';
import { createExtractInvoiceFields } from './extract-invoice-fields';
import { createExtractText } from './extract-text';
import { createScoreOrder } from './order-score/score-order';
import { createScoreOrderBatchActivities } from './order-score/score-order-batch';
import { createPostInvoiceToLedger } from './post-invoice-to-ledger';
import { createTicketsDigestActivities } from './tickets-digest';
import { validateReviewFields } from './validate-review-fields';

export interface ActivityDeps {
  store: ObjectStore;
  gateway: ModelGateway;
  embeddings: EmbeddingsGateway;
  config: Pick<Config, 'anthropic' | 'document' | 'ledger' | 'tenants' | 'clients'>;
  /** The Message Batches lane; without it the lane's activities refuse and jobs take the live path. */
  batchLane?: BatchLaneDeps;
}

/** The batch lane's activities: a job's side (enqueue, read the answer) and the collector's (submit, poll, store). */
export const BATCH_LANE_ACTIVITIES = [
  'enqueueScoreOrderBatch',
  'scoreOrderFromBatch',
  'submitMessageBatch',
  'messageBatchHasEnded',
  'storeMessageBatchResults',
] as const;

/**
 * Every activity, built from injected clients so tests can hand in their own. A step runs the activity of its own
 * name (a webhook delivery is no step of a job), and the compiler holds every step to having one.
 */
export function createActivities(deps: ActivityDeps) {
  return { ...createInvoiceActivities(deps), ...createDocumentActivities(deps) } satisfies Record<
    ActivityStep | 'deliverWebhook' | 'validateReviewFields' | (typeof BATCH_LANE_ACTIVITIES)[number],
    (input: never) => Promise<unknown>
  >;
}

/** The steps of the types that run a few steps (invoice, order.score, tickets.digest), and what every type shares (webhooks). */
export function createInvoiceActivities(deps: ActivityDeps) {
  return {
    extractText: createExtractText({ store: deps.store, maxScannedPages: deps.config.anthropic.scannedMaxPages }),
    classifyDocument: createClassifyDocument({
      store: deps.store,
      gateway: deps.gateway,
      model: deps.config.anthropic.classifyModel,
      repairTries: deps.config.anthropic.repairTries,
    }),
    extractInvoiceFields: createExtractInvoiceFields({
      store: deps.store,
      gateway: deps.gateway,
      model: deps.config.anthropic.extractModel,
      repairTries: deps.config.anthropic.repairTries,
    }),
    postInvoiceToLedger: createPostInvoiceToLedger({ ledger: deps.config.ledger }),
    scoreOrder: createScoreOrder({
      gateway: deps.gateway,
      model: deps.config.anthropic.scoreModel,
      repairTries: deps.config.anthropic.repairTries,
    }),
    ...createScoreOrderBatchActivities({
      gateway: deps.gateway,
      model: deps.config.anthropic.scoreModel,
      repairTries: deps.config.anthropic.repairTries,
      lane: deps.batchLane,
    }),
    ...createCollectorActivities(deps.batchLane),
    deliverWebhook: createDeliverWebhook({
      tenants: deps.config.tenants,
      policy: { allowPrivate: deps.config.clients.allowPrivateCallbackUrls },
    }),
    validateReviewFields,
    ...createTicketsDigestActivities({
      store: deps.store,
      gateway: deps.gateway,
      model: deps.config.anthropic.digestModel,
      repairTries: deps.config.anthropic.repairTries,
    }),
  };
}

export type InvoiceActivities = ReturnType<typeof createInvoiceActivities>;

/** The `document` job type's steps (workflows/document/). */
export function createDocumentActivities(deps: Pick<ActivityDeps, 'store' | 'gateway' | 'embeddings' | 'config'>) {
  const { summarizeModel, ...settings } = deps.config.document;
  return {
    readDocumentPages: createReadDocumentPages({ store: deps.store, settings }),
    processDocumentChunk: createProcessDocumentChunk({ ...deps, summarizeModel }),
    writeDocumentChunks: createWriteDocumentChunks({ store: deps.store }),
    summarizeDocument: createSummarizeDocument({ store: deps.store, gateway: deps.gateway, summarizeModel }),
  };
}

export type DocumentActivities = ReturnType<typeof createDocumentActivities>;
/** Every activity a job workflow may call: the workflows type their proxies with this. */
export type JobActivities = ReturnType<typeof createActivities>;
