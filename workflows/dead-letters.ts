import { ApplicationFailure, CancellationScope, CancelledFailure, condition, deprecatePatch, setHandler } from '@temporalio/workflow';
import type { JobError, JobStart, JobStep } from '../common/job';
import type { DeadLetterOutcome } from '../common/job-metrics';
import { abandonUpdate, type OperatorInput, type OperatorResult, retryUpdate } from '../common/messages';
import { jobMetrics } from './job-metrics';
import type { JobTracker } from './job-tracker';
import { PATCHES } from './patches';

/** A failed step's error: which step is never in doubt once a step has failed. */
export type StepFailure = JobError & { step: JobStep };

/**
 * A step that failed for good does not lose the job: it parks as `dead_letter` with its error until an operator
 * sends `retry` (run the failed step again) or `abandon`, or the wait expires, or the job is cancelled.
 */
export class DeadLetters {
  private decision: { outcome: 'retry' | 'abandon'; by: OperatorInput } | undefined;
  /**
   * The job's cancel, seen from the workflow's root scope. A park inside `beyondCancel` (a ledger post that failed
   * for good) runs in a scope the cancel does not reach, yet nothing is in flight while parked: the cancel ends it.
   */
  private cancelRequested = false;

  constructor(
    private readonly input: JobStart,
    private readonly tracker: JobTracker,
  ) {
    CancellationScope.current().cancelRequested.catch(() => {
      this.cancelRequested = true;
    });
    const parked = () => this.tracker.state.status === 'dead_letter' && this.decision === undefined;
    const validator = (_by: OperatorInput): void => {
      if (!parked()) {
        throw ApplicationFailure.create({
          type: 'NotDeadLettered',
          message: `the job is ${this.tracker.state.status}, not a dead letter`,
          details: [{ status: this.tracker.state.status }],
        });
      }
    };
    setHandler(
      retryUpdate,
      (by): OperatorResult => {
        this.decision = { outcome: 'retry', by };
        return { accepted: true, status: 'processing', ...(this.tracker.state.step ? { step: this.tracker.state.step } : {}) };
      },
      { validator },
    );
    setHandler(
      abandonUpdate,
      (by): OperatorResult => {
        this.decision = { outcome: 'abandon', by };
        return { accepted: true, status: 'failed' };
      },
      { validator },
    );
  }

  private decided(): 'retry' | 'abandon' | undefined {
    return this.decision?.outcome;
  }

  /** Parks the job with `error` and waits for the operator; `onParked` runs once the job is visible as parked. */
  async park(error: StepFailure, onParked: () => Promise<void>): Promise<Exclude<DeadLetterOutcome, 'cancelled'>> {
    const { state } = this.tracker;
    this.decision = undefined;
    const since = new Date();
    state.error = error;
    state.deadLetter = {
      error,
      since: since.toISOString(),
      expiresAt: new Date(since.getTime() + this.input.deadLetterTimeoutMs).toISOString(),
      retries: state.deadLetter?.retries ?? 0,
    };
    this.tracker.setStatus('dead_letter', error.step, error);
    const { step } = error;
    jobMetrics.deadLettered({ priority: this.input.priority, step, errorType: error.type });
    await onParked();
    deprecatePatch(PATCHES.cancelEndsAnyPark.id);
    const cancelEndsPark = true;
    const decided = await condition(
      () => this.decision !== undefined || (cancelEndsPark && this.cancelRequested),
      this.input.deadLetterTimeoutMs,
    );
    if (this.decision === undefined && cancelEndsPark && this.cancelRequested) {
      jobMetrics.deadLetterDecided({ priority: this.input.priority, step, outcome: 'cancelled' });
      throw new CancelledFailure('the job was cancelled while parked as a dead letter');
    }
    const outcome = (decided && this.decided()) || 'expired';
    jobMetrics.deadLetterDecided({ priority: this.input.priority, step, outcome });
    if (outcome === 'retry') {
      state.deadLetter.retries += 1;
      state.error = undefined;
    }
    return outcome;
  }
}
