import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure, TimeoutFailure } from '@temporalio/workflow';
import type { FailureDetails } from '../../common/errors';
import type { Usage } from '../../common/job';

/** What a failed activity (or child) says about itself: its type, message, whether a retry could help, billed usage. */
export interface FailureSummary {
  type: string;
  message: string;
  retryable: boolean;
  attempts?: number;
  billedUsage?: Usage;
  /** Attempts a Redis outage took from the activity (workers/activity-failure-interceptor.ts). */
  budgetUnavailableAttempts?: number;
}

/** Anything but an activity or child failure is a bug in the workflow: rethrown, so the task retries. */
export function summarizeFailure(error: unknown): FailureSummary {
  if (!(error instanceof ActivityFailure) && !(error instanceof ChildWorkflowFailure)) throw error;
  const cause = error.cause;
  if (cause instanceof ApplicationFailure) {
    const details = cause.details?.[0] as FailureDetails | undefined;
    return {
      type: cause.type ?? 'Error',
      message: cause.message,
      retryable: !cause.nonRetryable,
      ...(details?.attempt !== undefined ? { attempts: details.attempt } : {}),
      ...(details?.billedUsage ? { billedUsage: details.billedUsage } : {}),
      ...(details?.budgetUnavailableAttempts ? { budgetUnavailableAttempts: details.budgetUnavailableAttempts } : {}),
    };
  }
  if (cause instanceof TimeoutFailure) return { type: 'Timeout', message: `timed out (${cause.timeoutType})`, retryable: true };
  return { type: cause?.name ?? error.name, message: cause?.message ?? error.message, retryable: true };
}
