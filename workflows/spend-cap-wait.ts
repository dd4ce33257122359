import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure, condition, log, setHandler } from '@temporalio/workflow';
import { type FailureDetails, TenantSpendCapReachedError } from '../common/errors';
import type { BudgetWait, JobStep } from '../common/job';
import { spendCapRaisedSignal } from '../common/messages';
import type { JobTracker } from './job-tracker';

/** What a TenantSpendCapReachedError carries in its details (gateway/spend/spend-capped-gateway.ts). */
export type SpendCapRefusal = Omit<BudgetWait, 'since'>;

/**
 * Thrown by workflow code whose fan-out stopped on a spend-cap refusal (the document's chunk groups report one
 * instead of failing): JobRun.withSpendCapWaits waits on it as on a refused activity.
 */
export class SpendCapStopped extends Error {
  constructor(readonly refusal: SpendCapRefusal) {
    super('a paid call would pass the tenant’s spend cap');
  }
}

/** The refusal a failure carries: an activity's or a child's TenantSpendCapReachedError, or a stopped fan-out. */
export function spendCapRefusalOf(error: unknown): SpendCapRefusal | undefined {
  if (error instanceof SpendCapStopped) return error.refusal;
  if (!(error instanceof ActivityFailure) && !(error instanceof ChildWorkflowFailure)) return undefined;
  const cause = error.cause;
  if (!(cause instanceof ApplicationFailure) || cause.type !== TenantSpendCapReachedError.name) return undefined;
  return (cause.details?.[0] as FailureDetails | undefined)?.spendCap as SpendCapRefusal | undefined;
}

/** Never wake sooner than this after a refusal, so a skewed clock near a window's turn cannot spin the step. */
const MIN_WAIT_MS = 1_000;

/**
 * A step whose model call would pass the tenant's spend cap waits here, visibly (`budget_wait`, GET /jobs/:id,
 * SSE, webhook), on one durable timer until the window turns, or until an operator says the cap was raised. Then
 * the step runs again: no failure, no attempts spent, nothing polled meanwhile.
 */
export class SpendCapWait {
  private waiting = false;
  private raised = false;

  constructor(private readonly tracker: JobTracker) {
    setHandler(spendCapRaisedSignal, (by) => {
      // A job not waiting has nothing to resume; a raise it missed is seen by its next call anyway.
      if (!this.waiting) return;
      log.info('operator raised the spend cap', { operator: by.operator });
      this.raised = true;
    });
  }

  /** Waits out the refusal; `onWaiting` runs once the job is visible in `budget_wait` (the webhook). */
  async wait(step: JobStep, refusal: SpendCapRefusal, onWaiting: () => Promise<void>): Promise<void> {
    const { state } = this.tracker;
    state.budgetWait = { ...refusal, since: new Date().toISOString() };
    this.tracker.setStatus('budget_wait', step);
    this.waiting = true;
    this.raised = false;
    await onWaiting();
    const untilTurn = Math.max(MIN_WAIT_MS, Date.parse(refusal.resumesAt) - Date.now());
    const raised = await condition(() => this.raised, untilTurn);
    log.info(raised ? 'spend cap raised; running the step again' : 'spend window turned; running the step again', { step });
    this.waiting = false;
    state.budgetWait = undefined;
  }
}
