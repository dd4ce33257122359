import { WorkflowNotFoundError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Job } from '../../common/api-contract/job';
import type { JobState } from '../../common/job';
import { submitReviewUpdate, type SubmitReviewInput } from '../../common/messages';
import { ReviewDeadlineKey } from '../../common/search-attributes';
import { approvalFieldsErrors } from '../../common/approval-fields';
import type { JobTypeDefinition } from '../../common/job-types/job-type';
import { jobTypeNamed } from '../../common/job-types/registry';
import { apiErrors } from '../api-error';
import { canonicalJson } from '../../common/canonical-json';
import type { JobReader } from './job-reader';
import type { JobsDeps } from './jobs-deps';

/**
 * How long a review decision waits for a worker to take it. Without a bound the request hangs for as long as no
 * worker runs (a deploy, an outage), and the reviewer's page with it.
 */
const REVIEW_DEADLINE_MS = 15_000;

/** `POST /jobs/:id/review`: hands a decision to the workflow's Update, which says at once whether it counted. */
export function createReviewJob(deps: Pick<JobsDeps, 'client'>, reader: JobReader, typeNamed: (name: string) => JobTypeDefinition | undefined = jobTypeNamed) {
  const { client } = deps;

  return async function reviewJob(tenantId: string, jobId: string, review: SubmitReviewInput, requestId?: string): Promise<Job> {
    const description = await reader.getOwnedJob(tenantId, jobId);
    const status = reader.baseOf(description).status;
    if (description.status.name !== 'RUNNING') {
      // A resend of the decision that closed the job (its first answer was lost, a 503) gets the job, not a 409.
      const state = await reader.stateOf(description);
      if (state?.review && isSameDecision(state.review, review)) return reader.view(description);
      throw apiErrors.notAwaitingReview(status);
    }
    // A job that never opened review cannot hold a decision to resend: 409 at once, even with no worker.
    if (status !== 'awaiting_review' && !description.typedSearchAttributes.get(ReviewDeadlineKey)) {
      throw apiErrors.notAwaitingReview(status);
    }
    // Fields are judged only while the job awaits review; once it moved on they no longer matter, and the Update
    // below answers: the same Update id (a resend) gets its first answer, a new decision the validator's 409.
    if (status === 'awaiting_review' && review.decision === 'approve') {
      // The type's reviewer view says whether approving sends an edited result (checked by its schema) or only yes.
      const view = typeNamed(reader.baseOf(description).type)?.reviewer;
      const errors = view ? approvalFieldsErrors(view, review.fields) : [];
      if (errors.length > 0) throw apiErrors.invalidFields(errors);
    }
    const handle = client.workflow.getHandle(jobId);
    try {
      await client.withDeadline(Date.now() + REVIEW_DEADLINE_MS, () =>
        handle.executeUpdate(submitReviewUpdate, { args: [review], ...(requestId ? { updateId: requestId } : {}) }),
      );
    } catch (error) {
      throw reviewRefusal(error);
    }
    return reader.view(await reader.getOwnedJob(tenantId, jobId));
  };
}

/** The API error a failed review Update answers as; anything unexpected is rethrown as it is. */
function reviewRefusal(error: unknown): unknown {
  if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return apiErrors.reviewNotTaken(REVIEW_DEADLINE_MS);
  if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
    if (error.cause.type === 'InvalidReviewFields') {
      const details = error.cause.details?.[0] as { errors?: string[] } | undefined;
      return apiErrors.invalidFields(details?.errors ?? [error.cause.message]);
    }
    if (error.cause.type === 'NotAwaitingReview') {
      const details = error.cause.details?.[0] as { status?: string } | undefined;
      return apiErrors.notAwaitingReview(details?.status ?? 'not awaiting review');
    }
  }
  if (error instanceof WorkflowNotFoundError) return apiErrors.notAwaitingReview('closed');
  return error;
}

/** Whether a review request is the decision the job recorded (same outcome, reviewer, reason or fields). */
function isSameDecision(recorded: NonNullable<JobState['review']>, review: SubmitReviewInput): boolean {
  if (recorded.reviewer !== review.reviewer) return false;
  if (review.decision === 'reject') return recorded.decision === 'rejected' && recorded.reason === review.reason;
  return recorded.decision === 'approved' && canonicalJson(recorded.fields) === canonicalJson(review.fields);
}
