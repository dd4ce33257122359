import { ApplicationFailure, condition, log, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { InvoiceJobInput } from '../common/job';
import {
  rejectedSignal,
  reviewedSignal,
  submitReviewUpdate,
  type SubmitReviewInput,
} from '../common/messages';
import { NeedsReviewKey, ReviewDeadlineKey } from '../common/search-attributes';
import { validateInvoice } from '../common/validation';
import { jobMetrics } from './job-metrics';
import type { JobTracker } from './job-tracker';

/**
 * Human review: the `submitReview` Update (validated, so the reviewer learns at once whether the decision
 * counted) and the design card's `reviewed` / `rejected` signals. Waiting costs nothing while nobody decides.
 */
export class Review {
  private decision: SubmitReviewInput | undefined;

  constructor(
    private readonly input: InvoiceJobInput,
    private readonly tracker: JobTracker,
  ) {
    const awaiting = () => this.tracker.state.status === 'awaiting_review' && this.decision === undefined;
    setHandler(
      submitReviewUpdate,
      (review) => {
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
            const checked = validateInvoice(review.fields);
            if (!checked.ok) {
              throw ApplicationFailure.create({
                type: 'InvalidReviewFields',
                message: `the fields do not match the invoice schema: ${checked.errors.join('; ')}`,
                details: [{ errors: checked.errors }],
              });
            }
          } else if (review.reason.trim() === '') {
            throw ApplicationFailure.create({ type: 'InvalidReviewFields', message: 'a rejection needs a reason' });
          }
        },
      },
    );
    // Signals cannot answer the sender, so an invalid one is logged and the job keeps waiting for a valid decision.
    setHandler(reviewedSignal, ({ fields, reviewer }) => {
      if (!awaiting()) return log.warn('reviewed signal ignored: job is not awaiting review', { status: this.tracker.state.status });
      const checked = validateInvoice(fields);
      if (!checked.ok) return log.warn('reviewed signal ignored: invalid fields', { errors: checked.errors });
      this.decision = { decision: 'approve', fields: checked.value, reviewer };
    });
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
