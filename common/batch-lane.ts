import { defineQuery, defineSignal } from '@temporalio/workflow';

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
  'scoreOrder',
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
  /** How often a submitted batch is asked whether it has ended (a durable timer of its batch workflow). */
  pollIntervalMs: number;
  /**
   * …or as soon as the next request would take its requests past this many bytes (the provider refuses a batch
   * past 256 MB). Absent in collectors started before it existed: no byte limit.
   */
  maxBatchBytes?: number;
  /**
   * A batch whose status or results cannot be read for this long is given up: its jobs take the live path and an
   * alert fires. Absent in collectors started before it existed: DEFAULT_GIVE_UP_AFTER_MS.
   */
  giveUpAfterMs?: number;
  /** The queue the lane's own activities run on (batchLaneTaskQueue); absent, the workflow's own queue. */
  activityTaskQueue?: string;
}

/** Where a batch closes by size: 200 MB of requests, well inside the provider's 256 MB (platform.claude.com/docs/en/build-with-claude/batch-processing). */
export const MAX_BATCH_BYTES = 200 * 1024 * 1024;
/** How long an unreadable batch is tried before its jobs go live, when the settings do not say. */
export const DEFAULT_GIVE_UP_AFTER_MS = 6 * 60 * 60_000;

/**
 * How many of the `pending` entries (in arrival order) still fit in a batch that already holds `held`: no more
 * than `maxRequests` in all, nor past `maxBatchBytes` of requests — but always one into an empty batch, so one
 * oversized request cannot stall the lane (the provider's refusal of it comes back as a failed submission, and its
 * job goes live).
 */
export function entriesThatFit(
  held: { entries: number; bytes: number },
  pending: readonly BatchEntry[],
  settings: BatchCollectorSettings,
): number {
  const limit = Math.max(0, Math.min(pending.length, settings.maxRequests - held.entries));
  if (settings.maxBatchBytes === undefined) return limit;
  let bytes = held.bytes;
  for (let taken = 0; taken < limit; taken++) {
    bytes += pending[taken]?.requestBytes ?? 0;
    if (bytes > settings.maxBatchBytes) return held.entries === 0 ? Math.max(1, taken) : taken;
  }
  return limit;
}

/** True when the batch cannot take the next pending entry (by count or by bytes): it goes out without waiting. */
export function batchIsFull(
  held: { entries: number; bytes: number },
  pending: readonly BatchEntry[],
  settings: BatchCollectorSettings,
): boolean {
  return held.entries + pending.length >= settings.maxRequests || entriesThatFit(held, pending, settings) < pending.length;
}

/**
 * The batch a collector is filling. Its entries go to the object store in segments as they arrive
 * (batchLaneKeys.segment), so a collector's history and what it carries into its next run stay this small whatever
 * the batch's size.
 */
export interface OpenBatch {
  /** Names the batch before it exists at the provider: its workflow, its segments, its intent record. */
  batchKey: string;
  /** When its first entry arrived (epoch ms): the collect window runs from here. */
  openedAt: number;
  /** Entries and request bytes written to its segments so far. */
  entries: number;
  bytes: number;
  segments: number;
}

/** A batch a collector of the earlier shape had submitted: handed to a batch workflow of its own on upgrade. */
export interface SubmittedBatch {
  batchId: string;
  entries: BatchEntry[];
}

/** What a collector hands to its next run (continue-as-new): the open batch, never an entry list. */
export interface BatchCollectorCarry {
  open?: OpenBatch;
  /** When the provider's batches were last reconciled (epoch ms). */
  reconciledAt?: number;
  /** Entries that arrived while the last run ended, at most a segment's worth (none from collectors before that). */
  waiting?: BatchEntry[];
  /** When the first of `waiting` arrived (epoch ms): its collect window runs on from then. */
  waitingSince?: number;
  submitted?: SubmittedBatch[];
  answered?: string[];
}

export interface BatchCollectorInput {
  model: string;
  settings: BatchCollectorSettings;
  /** A run continues as new past this many history events; absent, the collector's own limit (tests set fewer). */
  historyEventsLimit?: number;
  carry?: BatchCollectorCarry;
}

/** One closed batch's own workflow: submit, poll, read the results, answer the jobs. */
export interface MessageBatchInput {
  model: string;
  batchKey: string;
  /** How many segments hold its entries (batchLaneKeys.segment(batchKey, 0 … segments - 1)). */
  segments: number;
  settings: BatchCollectorSettings;
  /** Set when the batch exists already (taken over from an earlier collector, or a run continued as new). */
  batchId?: string;
  /** When its status first failed to read (epoch ms), carried into a run continued as new. */
  unreadableSince?: number;
  /** When its first entry reached the collector (epoch ms); absent in batches started before it was passed. */
  openedAt?: number;
}

/** How a batch workflow ended; its result, which the backfill bench and operators read. */
export interface MessageBatchSummary {
  batchKey: string;
  batchId?: string;
  /** Entries sent in the batch (after dropping repeats). */
  entries: number;
  ending: 'answered' | 'not_submitted' | 'given_up' | 'empty';
  /** When the provider says the batch ended, and when its last job was answered (ISO). */
  endedAt?: string;
  answeredAt?: string;
  outcomes: Partial<Record<BatchEntryOutcome, number>>;
}

/** What a lane workflow says of the entries it holds that are not yet in a submitted batch (laneWaitQuery). */
export interface LaneWait {
  /** When the oldest of them reached the collector (epoch ms); absent when none waits here. */
  oldestWaitingSince?: number;
}

/** One entry per signal: what builds before batchEntriesSignal send, and BATCH_COALESCE_ENQUEUES=false. */
export const batchEntrySignal = defineSignal<[BatchEntry]>('batchEntry');
/**
 * The entries one worker process enqueued while its previous signal was in flight (activities/batch-lane/
 * collector-signals.ts). The SDK spends one to two milliseconds of the workflow thread per signal, so thousands of
 * one-entry signals buffered while the collector's worker was behind overran the 5 s activation limit.
 */
export const batchEntriesSignal = defineSignal<[BatchEntry[]]>('batchEntries');
/** The most entries one batchEntriesSignal carries: about 150 bytes each, far under the payload limit. */
export const ENQUEUE_SIGNAL_ENTRIES = 500;
/** Asked of collectors and unsubmitted batches by the API's metrics (lib/metrics-batch-lane-wait.ts). */
export const laneWaitQuery = defineQuery<LaneWait>('laneWait');
export const batchAnswerSignal = defineSignal<[BatchAnswer]>('batchAnswer');

const COLLECTOR_ID_PREFIX = 'batch-collector:';
const BATCH_ID_PREFIX = 'message-batch:';

/** One collector per model: its workflow id, so signal-with-start finds the running one or starts it. */
export function batchCollectorWorkflowId(model: string): string {
  return `${COLLECTOR_ID_PREFIX}${model}`;
}

/** One workflow per batch, named by its key: a repeated start of the same batch finds the one running. */
export function messageBatchWorkflowId(model: string, batchKey: string): string {
  return `${BATCH_ID_PREFIX}${model}:${batchKey}`;
}

/** The model a collector's or a batch's workflow id names; undefined for any other workflow. */
export function modelOfLaneWorkflow(workflowId: string): string | undefined {
  if (workflowId.startsWith(COLLECTOR_ID_PREFIX)) return workflowId.slice(COLLECTOR_ID_PREFIX.length) || undefined;
  if (!workflowId.startsWith(BATCH_ID_PREFIX)) return undefined;
  const rest = workflowId.slice(BATCH_ID_PREFIX.length);
  const keyStart = rest.lastIndexOf(':');
  return keyStart > 0 && keyStart < rest.length - 1 ? rest.slice(0, keyStart) : undefined;
}

/** Where a lane request and its answer wait in the object store, by custom id (activities/batch-lane). */
export const batchLaneKeys = {
  request: (customId: string) => `batch-lane/requests/${customId}.json`,
  answer: (customId: string) => `batch-lane/answers/${customId}.json`,
  /** The entry's spend hold (activities/batch-lane/batch-entry-spend.ts), settled when its batch's results are read. */
  spendHold: (customId: string) => `batch-lane/holds/${customId}.json`,
  /** A closed batch's entries as the collector wrote them, a segment at a time. */
  segment: (batchKey: string, index: number) => `batch-lane/batches/${batchKey}/segments/${index}.json`,
  /** The entries the batch was created with, repeats dropped: whom its answers go to. */
  entries: (batchKey: string) => `batch-lane/batches/${batchKey}/entries.json`,
  /** Written before the batch is created and again with its id: a retried submission reads it first. */
  intent: (batchKey: string) => `batch-lane/batches/${batchKey}/intent.json`,
  /** Each entry's outcome, written as the results are read. */
  outcomes: (batchKey: string) => `batch-lane/batches/${batchKey}/outcomes.json`,
  /** A provider batch id the product knows, with its batch key: the reconciler's index. */
  batchId: (batchId: string) => `batch-lane/batch-ids/${batchId}.json`,
  /** Present while a submission may have created a batch it has not recorded: what the reconciler looks for. */
  creating: (batchKey: string) => `${CREATING_PREFIX}${batchKey}.json`,
};

export const CREATING_PREFIX = 'batch-lane/creating/';
