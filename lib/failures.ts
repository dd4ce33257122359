import { ApplicationFailure } from '@temporalio/common';
import { type FailureDetails, SlowlaneError } from '../common/errors';

/** Exponential backoff with full jitter for retryable failures the provider gave no hint for. */
export function jitteredBackoffMs(attempt: number, random = Math.random, baseMs = 2_000, capMs = 60_000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Our typed errors become ApplicationFailures whose type is the class name (matched against the retry
 * policy's non-retryable list) and whose nextRetryDelay is the provider's Retry-After when it gave one.
 * Other errors keep their name as type and stay retryable, as the SDK would make them.
 */
export function toApplicationFailure(error: unknown, attempt: number, extra: Omit<FailureDetails, 'attempt'> = {}): unknown {
  if (error instanceof ApplicationFailure) return error;
  if (error instanceof SlowlaneError) {
    const nextRetryDelay = error.retryable ? (error.retryAfterMs ?? jitteredBackoffMs(attempt)) : undefined;
    const details: FailureDetails = { ...error.details, ...extra, attempt };
    return ApplicationFailure.create({
      type: error.name,
      message: error.message,
      nonRetryable: !error.retryable,
      ...(nextRetryDelay !== undefined ? { nextRetryDelay } : {}),
      details: [details],
    });
  }
  if (error instanceof Error) {
    const details: FailureDetails = { ...extra, attempt };
    return ApplicationFailure.create({ type: error.name, message: error.message, details: [details], cause: error });
  }
  return error;
}
