import { ApplicationFailure } from '@temporalio/common';
import { SlowlaneError } from '../common/errors';

/** Exponential backoff with full jitter for retryable failures the provider gave no hint for. */
export function jitteredBackoffMs(attempt: number, random = Math.random, baseMs = 2_000, capMs = 60_000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Our typed errors become ApplicationFailures whose type is the class name (matched against the retry
 * policy's non-retryable list) and whose nextRetryDelay is the provider's Retry-After when it gave one.
 */
export function toApplicationFailure(error: unknown, attempt: number): unknown {
  if (!(error instanceof SlowlaneError)) return error;
  const nextRetryDelay = error.retryable ? (error.retryAfterMs ?? jitteredBackoffMs(attempt)) : undefined;
  return ApplicationFailure.create({
    type: error.name,
    message: error.message,
    nonRetryable: !error.retryable,
    ...(nextRetryDelay !== undefined ? { nextRetryDelay } : {}),
    ...(error.details ? { details: [error.details] } : {}),
  });
}
