import type { Usage } from './job';

/**
 * What every activity failure carries in its first detail: the attempt, so the job can report how many it took,
 * and the usage of a model call that was billed although the step failed (a refusal, a garbled answer).
 */
export interface FailureDetails {
  attempt: number;
  billedUsage?: Usage;
  /**
   * How many of this activity's attempts so far could not reach the budget (BudgetUnavailableError), counted across
   * attempts by workers/activity-failure-interceptor.ts: the job gives such a step fresh attempts rather than parking
   * it, whatever its last error, since the outage spent attempts the step never had.
   */
  budgetUnavailableAttempts?: number;
  [key: string]: unknown;
}

/**
 * The errors Slowlane's steps raise. Each says whether a retry can help; its `name`, and so its Temporal failure
 * type (the ErrorType search attribute, the API's `error.type`, the `error_type` metric label), is its class name,
 * as in the SDK. Activities convert them with toApplicationFailure() (lib/failures.ts); the retry policies list
 * NON_RETRYABLE_ERROR_TYPES, derived below from ERROR_CLASSES, so the server never retries them.
 */
export abstract class SlowlaneError extends Error {
  /**
   * Whether a retry can help, said once per class: static, so the retry policies read it without building an error
   * (every workflow loads them, and an Error costs a stack capture in the sandbox).
   */
  declare static readonly retryable: boolean;
  override readonly name: string;
  /** When the cause tells us when to come back (a provider's Retry-After, a refilling token budget). */
  readonly retryAfterMs?: number;
  readonly details?: Record<string, unknown>;

  constructor(message: string, options: { retryAfterMs?: number; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    // The class name survives the workflow bundle (webpack in development mode, never minified) and tsx.
    this.name = new.target.name;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.details !== undefined) this.details = options.details;
  }

  get retryable(): boolean {
    return (this.constructor as typeof SlowlaneError).retryable;
  }
}

/** The upload cannot be read: encrypted, corrupt, empty or without a text layer. Retrying reads the same bytes. */
export class InvalidDocumentError extends SlowlaneError {
  static override readonly retryable = false;
}

/** The document is too large for the model's context or the provider's request limit. */
export class DocumentTooLargeError extends SlowlaneError {
  static override readonly retryable = false;
}

/** The provider (or the shared token budget) asks us to wait; retried after retryAfterMs. */
export class ModelRateLimitedError extends SlowlaneError {
  static override readonly retryable = true;
}

/** The provider is overloaded (529) or failed (5xx, connection, timeout); retried with backoff. */
export class ModelUnavailableError extends SlowlaneError {
  static override readonly retryable = true;
}

/**
 * The fleet's shared token budget cannot cover this call yet (or the provider asked everyone to pause). The call
 * never left: the activity gives its slot back and Temporal retries it after retryAfterMs, the time until enough
 * tokens exist, instead of the activity sleeping on a slot.
 */
export class TokenBudgetExhaustedError extends SlowlaneError {
  static override readonly retryable = true;
}

/**
 * The shared store behind the token budget and the tenants' spend (Redis) cannot be reached, so the call was not
 * admitted and never left. Nothing is wrong with the job: Temporal retries it with backoff, and a job step whose
 * every attempt met the outage is scheduled again instead of parking (workflows/job-run.ts), so the outage spends
 * no attempts that lead to a dead letter. Made from ioredis's connection errors by lib/redis-unavailable.ts.
 */
export class BudgetUnavailableError extends SlowlaneError {
  static override readonly retryable = true;
}

/** The provider rejected the request itself (400/404/413): the same request will fail the same way. */
export class ModelRequestInvalidError extends SlowlaneError {
  static override readonly retryable = false;
}

/** Our credentials were refused (401/403): an operator must fix the key. */
export class ModelAuthError extends SlowlaneError {
  static override readonly retryable = false;
}

/** The workspace's monthly spend limit is reached: retrying only burns attempts until someone raises it. */
export class SpendLimitReachedError extends SlowlaneError {
  static override readonly retryable = false;
}

/**
 * The tenant's own daily or monthly spend cap (TENANT_SPEND_CAPS) cannot cover this call. Not retried by the server:
 * the job waits durably in `budget_wait` until the window turns (`details.resumesAt`) or an operator raises the cap
 * (workflows/spend-cap-wait.ts), then runs the step again.
 */
export class TenantSpendCapReachedError extends SlowlaneError {
  static override readonly retryable = false;
}

/** The model declined to process the content (stop_reason "refusal"). */
export class ContentRefusedError extends SlowlaneError {
  static override readonly retryable = false;
}

/**
 * The model's answer broke the tool's schema where nothing downstream can use a wrong one (a chunk's summary):
 * billed, and asked again, since another answer may well be valid.
 */
export class ModelOutputInvalidError extends SlowlaneError {
  static override readonly retryable = true;
}

/**
 * An answer asked for under the provider's schema constraint (`output_config.format`) still failed the schema: cut
 * short at max_tokens, or a constraint the provider does not enforce (a number's bounds). The constraint means the
 * same request answers the same way, so neither a repair nor a retry is spent on it; the billed call travels in
 * `details.billedUsage` and the raw answer in `details.rawOutput`.
 */
export class ConstrainedAnswerInvalidError extends SlowlaneError {
  static override readonly retryable = false;
}

/** The ledger refused the entry (4xx other than a replay): a person must look at it. */
export class LedgerRejectedError extends SlowlaneError {
  static override readonly retryable = false;
}

/** The ledger is down or slow (5xx, connection): safe to retry because posts carry an idempotency key. */
export class LedgerUnavailableError extends SlowlaneError {
  static override readonly retryable = true;
}

/** The webhook receiver answered that it will never accept this event (410 Gone). */
export class WebhookRejectedError extends SlowlaneError {
  static override readonly retryable = false;
}

/** The webhook receiver is down or failed; delivery is retried with backoff for a day. */
export class WebhookDeliveryFailedError extends SlowlaneError {
  static override readonly retryable = true;
}

/**
 * The push service refused the message for good (400 malformed, 401/403 VAPID refused, 413 too large): the same
 * message and keys are refused on every attempt. A 404/410 is no error: the subscription is gone and is removed.
 */
export class PushRejectedError extends SlowlaneError {
  static override readonly retryable = false;
}

/** The push service is unreachable, throttling (429) or failing (5xx); delivery is retried with backoff. */
export class PushDeliveryFailedError extends SlowlaneError {
  static override readonly retryable = true;
}

/**
 * A stored object failed its encryption's checks (lib/object-envelope.ts): altered, cut short, moved to another key,
 * sealed under a key whose bytes differ from ours, or plaintext where only sealed objects are accepted. The same
 * bytes fail the same way on every attempt.
 */
export class StoredObjectUnreadableError extends SlowlaneError {
  static override readonly retryable = false;
}

/**
 * A stored object is sealed under a key id this process was not given. Retried: during a key rotation's rollout
 * another deploy may still be on its way to this worker (docs/security.md#key-rotation).
 */
export class StoredObjectKeyMissingError extends SlowlaneError {
  static override readonly retryable = true;
}

/**
 * A call named a scan's Files API id the provider no longer holds (deleted by hand, or expired): the step drops
 * its record of the upload, and the retry uploads the scan again (activities/provider-file-media.ts).
 */
export class ProviderFileMissingError extends SlowlaneError {
  static override readonly retryable = true;
}

/** Every error class a step may throw; a new class goes here, and its retry semantics follow. */
export const ERROR_CLASSES = [
  InvalidDocumentError,
  DocumentTooLargeError,
  ModelRateLimitedError,
  ModelUnavailableError,
  TokenBudgetExhaustedError,
  BudgetUnavailableError,
  ModelRequestInvalidError,
  ModelAuthError,
  SpendLimitReachedError,
  TenantSpendCapReachedError,
  ContentRefusedError,
  ModelOutputInvalidError,
  ConstrainedAnswerInvalidError,
  LedgerRejectedError,
  LedgerUnavailableError,
  WebhookRejectedError,
  WebhookDeliveryFailedError,
  PushRejectedError,
  PushDeliveryFailedError,
  StoredObjectUnreadableError,
  StoredObjectKeyMissingError,
  ProviderFileMissingError,
] as const;

export const NON_RETRYABLE_ERROR_TYPES: readonly string[] = ERROR_CLASSES.filter((ErrorClass) => !ErrorClass.retryable).map(
  (ErrorClass) => ErrorClass.name,
);

/**
 * The failure types these classes had before a type became its class name. Histories, parked jobs and the
 * ErrorType search attribute of jobs that failed before that deploy still carry them; compare types with
 * currentErrorType() wherever one of those can appear. Only ever grows, until the last such job is gone.
 */
const LEGACY_ERROR_TYPES: Readonly<Record<string, string>> = {
  InvalidDocument: 'InvalidDocumentError',
  DocumentTooLarge: 'DocumentTooLargeError',
  ModelRateLimited: 'ModelRateLimitedError',
  ModelUnavailable: 'ModelUnavailableError',
  TokenBudgetExhausted: 'TokenBudgetExhaustedError',
  ModelRequestInvalid: 'ModelRequestInvalidError',
  ModelAuthFailed: 'ModelAuthError',
  SpendLimitReached: 'SpendLimitReachedError',
  ContentRefused: 'ContentRefusedError',
  LedgerRejected: 'LedgerRejectedError',
  LedgerUnavailable: 'LedgerUnavailableError',
  WebhookRejected: 'WebhookRejectedError',
  WebhookDeliveryFailed: 'WebhookDeliveryFailedError',
};

/** A failure type as today's classes name it, whether it was recorded before or after the rename. */
export function currentErrorType(type: string): string {
  return Object.hasOwn(LEGACY_ERROR_TYPES, type) ? (LEGACY_ERROR_TYPES[type] as string) : type;
}

/** The type and its legacy name, if it has one: what a search for jobs that failed with it must match. */
export function errorTypeAliases(type: string): string[] {
  const current = currentErrorType(type);
  return [current, ...Object.keys(LEGACY_ERROR_TYPES).filter((legacy) => LEGACY_ERROR_TYPES[legacy] === current)];
}

/**
 * Failure types of a step that never reached a provider because the fleet's budget could not admit it (refused, or
 * unreachable): a step whose last attempt failed so is scheduled again rather than parked as a dead letter.
 */
const BUDGET_WAIT_TYPES: readonly string[] = [TokenBudgetExhaustedError.name, BudgetUnavailableError.name];

/**
 * The failures that are the upload's own fault: unreadable, or more than the model can take. No operator can change
 * the bytes, so a job meeting one fails for its client with the reason (workflows/job-run.ts) instead of parking.
 */
const INPUT_ERROR_TYPES: readonly string[] = [InvalidDocumentError.name, DocumentTooLargeError.name];

/** Whether a failure of this type (recorded under any name it had) is the input's fault, told to the client. */
export function isInputError(type: string): boolean {
  return INPUT_ERROR_TYPES.includes(currentErrorType(type));
}

/** Whether a failure of this type (recorded under any name it had) is a wait for the budget, not a fault of the job. */
export function waitsForBudget(type: string): boolean {
  return BUDGET_WAIT_TYPES.includes(currentErrorType(type));
}
