import { defineSignal } from '@temporalio/workflow';

/**
 * The Message Batches lane's messages and names (docs/gateway.md#the-batch-lane). Workflow-safe: the job workflows
 * and the collector workflow use them, the activities type their inputs with them.
 */

/** A job's model request, waiting in S3 under its custom id, for the collector of its model to send in a batch. */
export interface BatchEntry {
  /** The request's `custom_id` in the batch: unique, `[a-zA-Z0-9_-]{1,64}`. */
  customId: string;
  /** The workflow waiting for the answer: the collector signals it batchAnswerSignal. */
  replyTo: string;
  /** The request's size as stored (its JSON): the collector closes a batch before the provider's byte limit. */
  requestBytes?: number;
}

/**
 * The steps whose first model call may take the batch lane: each is an activity whose input may carry `fromBatch`
 * (activities/batch-lane/first-call-from-batch.ts), and enqueueBatchEntry builds its request.
 */
export const BATCH_LANE_STEPS = [
  'classifyDocument',
  'extractInvoiceFields',
  'processDocumentChunk',
  'summarizeDocument',
  'summariseTicketBatch',
  'writeTicketDigest',
] as const;
export type BatchLaneStep = (typeof BATCH_LANE_STEPS)[number];

/** On a lane step's input: its first call was answered in a batch, under this custom id; absent, it asks live. */
export interface FromBatch {
  fromBatch?: { customId: string };
}

/** How an entry ended, in the provider's words; anything but `succeeded` sends the job to the live path. */
export type BatchEntryOutcome = 'succeeded' | 'errored' | 'expired' | 'canceled';

export interface BatchAnswer {
  customId: string;
  outcome: BatchEntryOutcome;
  /** The batch the entry was answered in; absent when it never got into one (the submission failed). */
  batchId?: string;
}

/** What decides when a batch goes out and how often it is checked (BATCH_* settings). */
export interface BatchCollectorSettings {
  /** A batch goes out this long after its first request arrived… */
  collectWindowMs: number;
  /** …or as soon as it holds this many requests. */
  maxRequests: number;
  /** How often a submitted batch is asked whether it has ended (a durable timer). */
  pollIntervalMs: number;
  /**
   * …or as soon as the next request would take its requests past this many bytes (the provider refuses a batch
   * past 256 MB). Absent in collectors started before it existed: no byte limit.
   */
  maxBatchBytes?: number;
}

/** Where a batch closes by size: 200 MB of requests, well inside the provider's 256 MB (FACTS.md §2.4). */
export const MAX_BATCH_BYTES = 200 * 1024 * 1024;

/**
 * How many of the waiting entries (in arrival order) the next batch takes: at most `maxRequests`, and no more than
 * fit in `maxBytes` of requests — but always the first, so one oversized request cannot stall the lane (the
 * provider's answer to it comes back as a failed submission, and its job goes live).
 */
export function entriesForNextBatch(waiting: readonly BatchEntry[], settings: BatchCollectorSettings): number {
  const limit = Math.min(waiting.length, settings.maxRequests);
  if (settings.maxBatchBytes === undefined) return limit;
  let bytes = 0;
  for (let taken = 0; taken < limit; taken++) {
    bytes += waiting[taken]?.requestBytes ?? 0;
    if (bytes > settings.maxBatchBytes) return Math.max(1, taken);
  }
  return limit;
}

/** True when the waiting entries fill a batch (by count or by bytes): it goes out without waiting for the window. */
export function batchIsFull(waiting: readonly BatchEntry[], settings: BatchCollectorSettings): boolean {
  return waiting.length >= settings.maxRequests || entriesForNextBatch(waiting, settings) < waiting.length;
}

/** A batch the collector submitted and still waits on, with the entries it carries. */
export interface SubmittedBatch {
  batchId: string;
  entries: BatchEntry[];
}

/** What a collector hands to its next run (continue-as-new) so nothing waiting is lost. */
export interface BatchCollectorCarry {
  waiting: BatchEntry[];
  submitted: SubmittedBatch[];
  /** Custom ids answered lately: a repeated enqueue signal (an activity retried) is not sent twice. */
  answered: string[];
}

export interface BatchCollectorInput {
  model: string;
  settings: BatchCollectorSettings;
  carry?: BatchCollectorCarry;
}

export const batchEntrySignal = defineSignal<[BatchEntry]>('batchEntry');
export const batchAnswerSignal = defineSignal<[BatchAnswer]>('batchAnswer');

/** One collector per model: its workflow id, so signal-with-start finds the running one or starts it. */
export function batchCollectorWorkflowId(model: string): string {
  return `batch-collector:${model}`;
}

/** Where a lane request and its answer wait in the object store, by custom id (activities/batch-lane). */
export const batchLaneKeys = {
  request: (customId: string) => `batch-lane/requests/${customId}.json`,
  answer: (customId: string) => `batch-lane/answers/${customId}.json`,
  /** The entry's spend hold (activities/batch-lane/batch-entry-spend.ts), settled when its batch's results are read. */
  spendHold: (customId: string) => `batch-lane/holds/${customId}.json`,
  /** The batch id a submission created: read first on a retry, so a retried submission creates no second batch. */
  submission: (submissionKey: string) => `batch-lane/submissions/${submissionKey}.json`,
};
