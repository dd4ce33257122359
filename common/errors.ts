import type { Usage } from './job';

/**
 * What every activity failure carries in its first detail: the attempt, so the job can report how many it took,
 * and the usage of a model call that was billed although the step failed (a refusal, a garbled answer).
 */
export interface FailureDetails {
  attempt: number;
  billedUsage?: Usage;
  [key: string]: unknown;
}

/**
 * The errors Slowlane's steps raise. Each class has a fixed `name`, which becomes the Temporal failure type,
 * and says whether a retry can help. Activities convert them with toApplicationFailure() (lib/failures.ts);
 * the workflow's retry policies list NON_RETRYABLE_ERROR_TYPES so the server never retries them.
 */
export abstract class SlowlaneError extends Error {
  abstract override readonly name: string;
  abstract readonly retryable: boolean;
  /** When the cause tells us when to come back (a provider's Retry-After, a refilling token budget). */
  readonly retryAfterMs?: number;
  readonly details?: Record<string, unknown>;

  constructor(message: string, options: { retryAfterMs?: number; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.details !== undefined) this.details = options.details;
  }
}

/** The upload cannot be read: encrypted, corrupt, empty or without a text layer. Retrying reads the same bytes. */
export class InvalidDocumentError extends SlowlaneError {
  override readonly name = 'InvalidDocument';
  readonly retryable = false;
}

/** The document is too large for the model's context or the provider's request limit. */
export class DocumentTooLargeError extends SlowlaneError {
  override readonly name = 'DocumentTooLarge';
  readonly retryable = false;
}

/** The provider (or the shared token budget) asks us to wait; retried after retryAfterMs. */
export class ModelRateLimitedError extends SlowlaneError {
  override readonly name = 'ModelRateLimited';
  readonly retryable = true;
}

/** The provider is overloaded (529) or failed (5xx, connection, timeout); retried with backoff. */
export class ModelUnavailableError extends SlowlaneError {
  override readonly name = 'ModelUnavailable';
  readonly retryable = true;
}

/**
 * The fleet's shared token budget cannot cover this call yet (or the provider asked everyone to pause). The call
 * never left: the activity gives its slot back and Temporal retries it after retryAfterMs, the time until enough
 * tokens exist, instead of the activity sleeping on a slot.
 */
export class TokenBudgetExhaustedError extends SlowlaneError {
  override readonly name = 'TokenBudgetExhausted';
  readonly retryable = true;
}

/** The provider rejected the request itself (400/404/413): the same request will fail the same way. */
export class ModelRequestInvalidError extends SlowlaneError {
  override readonly name = 'ModelRequestInvalid';
  readonly retryable = false;
}

/** Our credentials were refused (401/403): an operator must fix the key. */
export class ModelAuthError extends SlowlaneError {
  override readonly name = 'ModelAuthFailed';
  readonly retryable = false;
}

/** The workspace's monthly spend limit is reached: retrying only burns attempts until someone raises it. */
export class SpendLimitReachedError extends SlowlaneError {
  override readonly name = 'SpendLimitReached';
  readonly retryable = false;
}

/** The model declined to process the content (stop_reason "refusal"). */
export class ContentRefusedError extends SlowlaneError {
  override readonly name = 'ContentRefused';
  readonly retryable = false;
}

/** The ledger refused the entry (4xx other than a replay): a person must look at it. */
export class LedgerRejectedError extends SlowlaneError {
  override readonly name = 'LedgerRejected';
  readonly retryable = false;
}

/** The ledger is down or slow (5xx, connection): safe to retry because posts carry an idempotency key. */
export class LedgerUnavailableError extends SlowlaneError {
  override readonly name = 'LedgerUnavailable';
  readonly retryable = true;
}

export const NON_RETRYABLE_ERROR_TYPES: readonly string[] = [
  'InvalidDocument',
  'DocumentTooLarge',
  'ModelRequestInvalid',
  'ModelAuthFailed',
  'SpendLimitReached',
  'ContentRefused',
  'LedgerRejected',
];

/** The webhook receiver answered that it will never accept this event (410 Gone). */
export class WebhookRejectedError extends SlowlaneError {
  override readonly name = 'WebhookRejected';
  readonly retryable = false;
}

/** The webhook receiver is down or failed; delivery is retried with backoff for a day. */
export class WebhookDeliveryFailedError extends SlowlaneError {
  override readonly name = 'WebhookDeliveryFailed';
  readonly retryable = true;
}
