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
  /** The batch id a submission created: read first on a retry, so a retried submission creates no second batch. */
  submission: (submissionKey: string) => `batch-lane/submissions/${submissionKey}.json`,
};
