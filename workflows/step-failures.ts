import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';
import type { FailureDetails } from '../common/errors';
import type { JobStep } from '../common/job';
import type { StepFailure } from './dead-letters';

/** The first detail of an activity's ApplicationFailure (lib/failures.ts): its attempt, and any billed usage. */
export function failureDetailsOf(error: unknown): FailureDetails | undefined {
  if (!(error instanceof ActivityFailure) || !(error.cause instanceof ApplicationFailure)) return undefined;
  return error.cause.details?.[0] as FailureDetails | undefined;
}

/** What the job reports about a failed step. Anything but an activity failure is a bug: let the task retry. */
export function describeFailure(step: JobStep, error: unknown): StepFailure {
  if (!(error instanceof ActivityFailure)) throw error;
  const cause = error.cause;
  if (cause instanceof ApplicationFailure) {
    const attempt = failureDetailsOf(error)?.attempt;
    return {
      type: cause.type ?? 'Error',
      message: cause.message,
      step,
      retryable: !cause.nonRetryable,
      ...(attempt !== undefined ? { attempts: attempt } : {}),
    };
  }
  if (cause instanceof TimeoutFailure) {
    return { type: 'Timeout', message: `${step} timed out (${cause.timeoutType})`, step, retryable: true };
  }
  return { type: cause?.name ?? 'ActivityFailure', message: cause?.message ?? error.message, step, retryable: true };
}
