import { ActivityCancellationType, type ActivityOptions, type LocalActivityOptions } from '@temporalio/workflow';
import { NON_RETRYABLE_ERROR_TYPES } from '../common/errors';

/**
 * Timeouts and retry policies per kind of step. Heartbeat timeouts are short so a killed worker is noticed in
 * seconds, not at the start-to-close timeout. Our typed retryable errors bring their own delay (nextRetryDelay: the
 * provider's Retry-After, the budget's refill time, or jittered backoff; lib/failures.ts); these intervals apply to
 * timeouts and untyped errors.
 *
 * Priority keys (lower goes first within a task queue; unset is 3) make a worker finish the jobs it started
 * before it opens new ones: with a backlog of hundreds, first-in-first-out would extract text for all of them
 * and classify all of them before the first job completes, so a token budget would be spent with nothing
 * done. Needs `matching.useNewMatcher` on Temporal server 1.29 (temporal-dev.yaml); docs/gateway.md.
 */
export const extractTextOptions: ActivityOptions = {
  startToCloseTimeout: '2 minutes',
  // On a cancel the job waits for the activity to stop (it learns at its next heartbeat, within seconds), so a
  // cancelled job has nothing left running and its usage is final.
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  priority: { priorityKey: 4 },
  heartbeatTimeout: '20 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    maximumAttempts: 5,
    nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES],
  },
};

/** A model call's start-to-close: the SDK's own request timeout (MODEL_REQUEST_TIMEOUT, 2 min) sits below it. */
const MODEL_CALL_TIMEOUT_MS = 3 * 60_000;

/** Model calls. */
export const modelCallOptions: ActivityOptions = {
  startToCloseTimeout: MODEL_CALL_TIMEOUT_MS,
  // The heartbeat's answer carries the cancel; the call's AbortSignal stops the HTTP request to the provider.
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  priority: { priorityKey: 2 },
  heartbeatTimeout: '15 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '2 minutes',
    maximumAttempts: 6,
    nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES],
  },
};

/**
 * A chunk group's chunks in one step (processDocumentChunks): a model call's time for each round of chunks the step
 * runs at once, and a model call's retries.
 */
export function chunkGroupStepOptions(chunks: number, parallelChunks: number): ActivityOptions {
  return { ...modelCallOptions, startToCloseTimeout: Math.ceil(chunks / Math.max(1, parallelChunks)) * MODEL_CALL_TIMEOUT_MS };
}

/**
 * The invoice job's steps since `PATCHES.tenantsTakeTurnsAtFirstModelCall` (workflows/invoice/invoice-workflow.ts).
 * Fairness keys only order tasks of one priority key, so a job's place in line is decided where it first meets the
 * flood: with text extraction behind every model call (4 after 2), a newly arrived tenant's first step waited for
 * the flood's whole model-call backlog. Now text extraction, which needs no budget and takes milliseconds, goes before the
 * model calls, and tenants take turns at the job's first model call (classifyDocument, 3); a classified job's
 * extraction (2) and ledger post (1) still go before another job's first call, so started jobs finish first.
 */
export const entryTextOptions: ActivityOptions = { ...extractTextOptions, priority: { priorityKey: 2 } };
export const firstModelCallOptions: ActivityOptions = { ...modelCallOptions, priority: { priorityKey: 3 } };

/** Ledger posts are idempotent (job id as Idempotency-Key), so retrying for a while is safe. */
export const ledgerOptions: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  priority: { priorityKey: 1 },
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 10,
    nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES],
  },
};

/**
 * The review signal's field check (workflows/review.ts): pure computation on the worker that runs the workflow, so
 * it either answers at once or the worker is gone; a few quick attempts, then the signal counts as not checked.
 */
export const reviewCheckOptions: LocalActivityOptions = {
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '100 milliseconds', maximumAttempts: 3 },
};

/**
 * Reading a long PDF (up to DOCUMENT_MAX_PAGES pages) and assembling its chunks: minutes, not seconds, of I/O and
 * parsing; heartbeats notice a killed worker within 20 s all the same.
 */
export const documentFileOptions: ActivityOptions = {
  ...extractTextOptions,
  startToCloseTimeout: '15 minutes',
};

/**
 * Delivering an event to a client's endpoint (a webhook, a Web Push): retried with backoff for a day, because
 * receivers go down for maintenance and push services throttle, and an event must not be lost to either.
 */
export const deliveryOptions: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '24 hours',
  retry: {
    initialInterval: '5 seconds',
    backoffCoefficient: 2,
    maximumInterval: '30 minutes',
    nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES],
  },
};

/**
 * Waiting for the speech provider's callback (awaitCallChunkTranscript): the activity hands its slot back at once and
 * never heartbeats, so no heartbeat timeout, and a cancel cannot wait for it to stop. The start-to-close timeout is the
 * wait (CALL_CALLBACK_WAIT, from the split's settings); a timed-out attempt polls the transcript and waits again, so a
 * lost callback costs at most one wait and the whole chunk at most CALLBACK_WAIT_ATTEMPTS of them.
 */
export const CALLBACK_WAIT_ATTEMPTS = 4;
export function callbackWaitOptions(waitMs: number): ActivityOptions {
  return {
    startToCloseTimeout: waitMs,
    cancellationType: ActivityCancellationType.TRY_CANCEL,
    priority: modelCallOptions.priority,
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '30 seconds',
      maximumAttempts: CALLBACK_WAIT_ATTEMPTS,
      nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES],
    },
  };
}
