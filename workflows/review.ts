import {
  ApplicationFailure,
  condition,
  log,
  deprecatePatch,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { JobActivities } from '../activities';
import type { JobStart } from '../common/job';
import type { JobTypeDefinition } from '../common/job-types/job-type';
import {
  rejectedSignal,
  reviewedSignal,
  submitReviewUpdate,
  type SubmitReviewInput,
} from '../common/messages';
import { NeedsReviewKey, ReviewDeadlineKey } from '../common/search-attributes';
import { approvalFieldsErrors } from '../common/approval-fields';
import { reviewCheckOptions } from './activity-options';
import { jobMetrics } from './job-metrics';
import type { JobTracker } from './job-tracker';
import { PATCHES } from './patches';

const checks = proxyLocalActivities<JobActivities>(reviewCheckOptions);

/**
 * Human review: the `submitReview` Update (validated, so the reviewer learns at once whether the decision
 * counted) and the design card's `reviewed` / `rejected` signals. Waiting costs nothing while nobody decides.
 */
export class Review {
  private decision: SubmitReviewInput | undefined;

  constructor(
    private readonly input: JobStart,
    private readonly tracker: JobTracker,
    jobType: JobTypeDefinition,
  ) {
    const view = jobType.reviewer;
    const awaiting = () => this.tracker.state.status === 'awaiting_review' && this.decision === undefined;
    setHandler(
      submitReviewUpdate,
      (review) => {
        // Trusts what the validator accepted: the accepted Update is in history and validators do not run on
        // replay, so a later schema edit cannot undo an acceptance.
        this.decision = review;
        return { accepted: true, status: review.decision === 'approve' ? 'processing' : 'rejected' };
      },
      {
        validator: (review) => {
          const { state } = this.tracker;
          if (!awaiting()) {
            const by = state.review ? ` (decided by ${state.review.reviewer})` : this.decision ? ' (already decided)' : '';
            throw ApplicationFailure.create({
              type: 'NotAwaitingReview',
              message: `the job is ${state.status}${by}, not awaiting review`,
              details: [{ status: state.status }],
            });
          }
          if (review.decision === 'approve') {
            const errors = approvalFieldsErrors(view, review.fields);
            if (errors.length > 0) {
              throw ApplicationFailure.create({
                type: 'InvalidReviewFields',
                message: `the fields do not match what this job type's reviewer edits: ${errors.join('; ')}`,
                details: [{ errors }],
              });
            }
          } else if (review.reason.trim() === '') {
            throw ApplicationFailure.create({ type: 'InvalidReviewFields', message: 'a rejection needs a reason' });
          }
        },
      },
    );
    // Signals cannot answer the sender, so an invalid one is logged and the job keeps waiting for a valid decision.
    // Replay must reach the verdict it reached the first time, whatever the schema says now. The Update's
    // validator gets that for free (validators do not run on replay: the accepted Update is in history). A signal
    // has no validator, and checking at the sender cannot be relied on (any Temporal client can send it), so the
    // check runs as a local activity: recorded in history, replayed from there, on the worker already running
    // this workflow (no task queue, no deploy ordering).
    setHandler(reviewedSignal, async ({ fields, reviewer }) => {
      if (!awaiting()) return log.warn('reviewed signal ignored: job is not awaiting review', { status: this.tracker.state.status });
      deprecatePatch(PATCHES.reviewSignalCheckedByLocalActivity.id);
      const errors = await checkFields(jobType.name, fields);
      if (errors.length > 0) return log.warn('reviewed signal ignored: invalid fields', { errors });
      // Another decision may have been taken while the check ran; the first valid one counts.
      if (!awaiting()) return log.warn('reviewed signal ignored: job is not awaiting review', { status: this.tracker.state.status });
      this.decision = { decision: 'approve', fields, reviewer };
    });
    // A rejection carries no fields: nothing in it depends on the schema, so it stays a plain handler.
    setHandler(rejectedSignal, ({ reason, reviewer }) => {
      if (!awaiting()) return log.warn('rejected signal ignored: job is not awaiting review', { status: this.tracker.state.status });
      this.decision = { decision: 'reject', reason, reviewer };
    });
  }

  /** Opens review and waits up to the review timeout; undefined means it expired. */
  async await(onOpened: () => Promise<void>): Promise<SubmitReviewInput | undefined> {
    const openedAt = Date.now();
    const deadline = new Date(openedAt + this.input.reviewTimeoutMs);
    this.tracker.state.reviewDeadline = deadline.toISOString();
    this.tracker.setStatus('awaiting_review', 'review');
    upsertSearchAttributes([
      { key: NeedsReviewKey, value: true },
      { key: ReviewDeadlineKey, value: deadline },
    ]);
    await onOpened();
    const decided = await condition(() => this.decision !== undefined, this.input.reviewTimeoutMs);
    upsertSearchAttributes([{ key: NeedsReviewKey, value: false }]);
    const decision = decided ? this.decision : undefined;
    jobMetrics.reviewFinished({
      priority: this.input.priority,
      outcome: decision ? (decision.decision === 'approve' ? 'approved' : 'rejected') : 'expired',
      waitMs: Date.now() - openedAt,
    });
    return decision;
  }
}

async function checkFields(jobType: string, fields: unknown): Promise<string[]> {
  try {
    return (await checks.validateReviewFields({ jobType, fields })).errors;
  } catch (error) {
    // A failure thrown from a signal handler would fail the whole job; an unchecked signal is only ignored.
    log.warn('reviewed signal ignored: its fields could not be checked', { error: String(error) });
    return ['the fields could not be checked'];
  }
}
