import type { WorkflowExecutionDescription } from '@temporalio/client';
import type { LoadedDataConverter } from '@temporalio/common';
import { decodeOptionalFailureToOptionalError } from '@temporalio/common/lib/internal-non-workflow';
import { isActivityStep } from '../common/job-steps';
import type { CurrentAttempt } from '../common/api-contract/job-parts';

type PendingActivity = NonNullable<WorkflowExecutionDescription['raw']['pendingActivities']>[number];
type Timestamp = { seconds?: unknown; nanos?: number | null } | null | undefined;

/**
 * The job's step in flight as the server sees it (DescribeWorkflowExecution's pending activity), so a client or
 * operator learns "classifyDocument, attempt 3, last failed with ModelRateLimitedError, next at …" even while no worker answers.
 */
export function currentAttemptOf(description: Pick<WorkflowExecutionDescription, 'raw'>): CurrentAttempt | undefined {
  for (const pending of description.raw.pendingActivities ?? []) {
    const step = pending.activityType?.name ?? '';
    if (isActivityStep(step)) return describePending(step, pending);
  }
  return undefined;
}

/**
 * Pending activities' last failures arrive as the server keeps them: message and stack encrypted by the payload
 * codec (docs/operations.md#payload-encryption). Puts the readable message back, in place, before currentAttemptOf.
 */
export async function decodePendingFailures(description: Pick<WorkflowExecutionDescription, 'raw'>, converter: LoadedDataConverter): Promise<void> {
  for (const pending of description.raw.pendingActivities ?? []) {
    if (!pending.lastFailure?.encodedAttributes) continue;
    const error = await decodeOptionalFailureToOptionalError(converter, pending.lastFailure);
    if (error) pending.lastFailure.message = error.message;
  }
}

function describePending(step: CurrentAttempt['step'], pending: PendingActivity): CurrentAttempt {
  const failure = pending.lastFailure;
  const type = failure?.applicationFailureInfo?.type ?? (failure?.timeoutFailureInfo ? 'Timeout' : undefined);
  const nextAttemptAt = isoOf(pending.nextAttemptScheduleTime);
  return {
    step,
    attempt: Math.max(1, pending.attempt ?? 1),
    ...(failure?.message ? { lastFailure: { ...(type ? { type } : {}), message: failure.message } } : {}),
    ...(nextAttemptAt ? { nextAttemptAt } : {}),
  };
}

function isoOf(timestamp: Timestamp): string | undefined {
  if (!timestamp || timestamp.seconds === undefined || timestamp.seconds === null) return undefined;
  const ms = Number(timestamp.seconds) * 1000 + Math.round((timestamp.nanos ?? 0) / 1e6);
  return ms > 0 ? new Date(ms).toISOString() : undefined;
}
