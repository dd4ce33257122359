import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { JobState, JobStatus } from './job';

/** The job as the workflow sees it: status, step, attempts, error, usage, and what its type keeps beside them. */
export const statusQuery = defineQuery<JobState>('status');

export interface ReviewedSignalInput {
  /** The job type's editable result (its reviewer view's `editable`). */
  fields: unknown;
  reviewer: string;
}
export interface RejectedSignalInput {
  reason: string;
  reviewer: string;
}

/** The design card's signal: a reviewer approved these fields. Invalid fields are logged and ignored. */
export const reviewedSignal = defineSignal<[ReviewedSignalInput]>('reviewed');
/** A reviewer rejected the document. */
export const rejectedSignal = defineSignal<[RejectedSignalInput]>('rejected');

export type SubmitReviewInput =
  /** `fields`: the job type's editable result, required when it declares one, else absent (common/approval-fields.ts). */
  | { decision: 'approve'; fields?: unknown; reviewer: string }
  | { decision: 'reject'; reason: string; reviewer: string };

export interface SubmitReviewResult {
  accepted: true;
  status: JobStatus;
}

/**
 * What the reviewer UI and the API use: the validator rejects invalid fields or a job that is not awaiting
 * review before anything is written to history, so the caller learns at once whether the decision counted.
 */
export const submitReviewUpdate = defineUpdate<SubmitReviewResult, [SubmitReviewInput]>('submitReview');

export interface OperatorInput {
  operator: string;
  reason?: string;
}
export interface OperatorResult {
  accepted: true;
  status: JobStatus;
  step?: string;
}

/** Sends a dead-lettered job back to the step that failed, on whatever code the workers now run. */
export const retryUpdate = defineUpdate<OperatorResult, [OperatorInput]>('retry');
/** Gives up on a dead-lettered job: the workflow closes as failed with the error it parked with. */
export const abandonUpdate = defineUpdate<OperatorResult, [OperatorInput]>('abandon');

/**
 * An operator raised the tenant's spend cap (POST /admin/tenants/:tenantId/spend-cap-raised): a job in
 * `budget_wait` runs its step again now instead of at the window's turn. Ignored by a job that is not waiting.
 */
export const spendCapRaisedSignal = defineSignal<[OperatorInput]>('spendCapRaised');
