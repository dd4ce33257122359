import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  CancellationScope,
  CancelledFailure,
  condition,
  deprecatePatch,
  isCancellation,
  log,
  patched,
  proxyActivities,
  setHandler,
  TimeoutFailure,
} from '@temporalio/workflow';
import { type FailureDetails, isInputError, waitsForBudget } from '../common/errors';
import type { JobStart, JobState, JobStep, TerminalStatus } from '../common/job';
import type { JobTypeDefinition } from '../common/job-types/job-type';
import { statusQuery } from '../common/messages';
import type { JobActivities } from '../activities';
import { DeadLetters, type StepFailure } from './dead-letters';
import { jobMetrics } from './job-metrics';
import { JobTracker } from './job-tracker';
import { notifyClient } from './notifications';
import { Review } from './review';
import { SpendCapWait, spendCapRefusalOf } from './spend-cap-wait';
import { PATCHES } from './patches';

/**
 * The job ends `failed` with this error: an operator abandoned it as a dead letter, its dead-letter wait expired, or
 * its input cannot be processed (nothing an operator could retry).
 */
class JobFailed extends Error {
  constructor(readonly jobError: StepFailure) {
    super(jobError.message);
  }
}

export type RunStep = <T extends { attempt: number }>(step: JobStep, activity: () => Promise<T>) => Promise<T>;

/**
 * A step whose last attempt was refused by the shared token budget, or could not reach it (Redis away), never reached
 * the provider: nothing is wrong with the job, the fleet is just busy or its budget's store is down. It is scheduled
 * again (fresh attempts) instead of parking, for up to this long in all; past it something is off (a budget far too
 * small for the load, an outage nobody is fixing) and the job parks as usual.
 */
const BUDGET_WAIT_LIMIT_MS = 6 * 60 * 60 * 1000;

/** The job-end cleanup: retried briefly, then left to the retention sweep (it must not hold a finished job open). */
const cleanupSteps = proxyActivities<JobActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '30 seconds', maximumAttempts: 4 },
});

/**
 * What every job workflow shares, whatever its type: the status query, the tracker (status, search attributes,
 * events), review, dead letters, webhooks, metrics, and the two ways a job ends without finishing well:
 * cancelled by its client, or abandoned by an operator. A type's workflow only runs its steps in `settle`.
 */
export class JobRun {
  readonly tracker: JobTracker;
  readonly state: JobState;
  readonly review: Review;
  private readonly deadLetters: DeadLetters;
  private readonly spendCapWait: SpendCapWait;
  private uploadsScans = false;

  constructor(
    private readonly input: JobStart,
    private readonly jobType: JobTypeDefinition,
  ) {
    this.tracker = new JobTracker(input);
    this.state = this.tracker.state;
    this.review = new Review(input, this.tracker, jobType);
    this.deadLetters = new DeadLetters(input, this.tracker);
    this.spendCapWait = new SpendCapWait(this.tracker);
    setHandler(statusQuery, () => this.state);
  }

  readonly notify = (): Promise<void> => notifyClient(this.input, this.tracker, this.jobType);

  /**
   * The job's model steps read scans, which they may upload to the provider's Files API (MODEL_FILES_API): whichever
   * way the job ends, deleteJobProviderFiles runs at its end. Called as soon as the workflow knows, before any step
   * that could upload.
   */
  deletesProviderFilesAtEnd(): void {
    this.uploadsScans = true;
  }

  /** Histories recorded before the patch end without the cleanup; a failed cleanup is the sweep's to finish. */
  private async deleteProviderFiles(): Promise<void> {
    if (!this.uploadsScans || !patched(PATCHES.providerFilesDeletedAtJobEnd.id)) return;
    await CancellationScope.nonCancellable(async () => {
      try {
        await cleanupSteps.deleteJobProviderFiles({ tenantId: this.input.tenantId, jobId: this.input.jobId });
      } catch (error) {
        if (!(error instanceof ActivityFailure)) throw error;
        log.warn('the uploaded scans could not be deleted at the end of the job; the retention sweep will', { error: error.message });
      }
    });
  }

  /** Runs a step; when it fails for good the job parks as a dead letter and, on `retry`, runs the step again. */
  readonly run: RunStep = async (step, activity) => {
    const { input, tracker, state } = this;
    let startedAt = Date.now();
    for (;;) {
      try {
        const result = await this.withSpendCapWaits(
          step,
          () => {
            tracker.setStatus('processing', step);
            return activity();
          },
          // Hours in budget_wait are not the token budget's refusals: its limit counts from the step's new start.
          () => (startedAt = Date.now()),
        );
        // An activity that finished just as the cancel came: its result is not acted on.
        if (CancellationScope.current().consideredCancelled) throw new CancelledFailure('the job was cancelled');
        state.attempts[step] = result.attempt;
        jobMetrics.stepFinished({ priority: input.priority, step, outcome: 'completed', durationMs: Date.now() - startedAt });
        return result;
      } catch (error) {
        // A cancelled job is not a failed step: the cancel ends the job (settle), it does not park it.
        if (isCancellation(error)) throw error;
        const jobError = describeFailure(step, error);
        const billed = failureDetailsOf(error)?.billedUsage;
        if (billed) tracker.addUsage(billed);
        // BudgetUnavailableError and budgetUnavailableAttempts are newer than the patch, and no history recorded
        // before them holds either, so they share it: a recorded refusal replays exactly as it ran.
        if (
          (waitsForBudget(jobError.type) || outageTookAttempts(jobError, error)) &&
          Date.now() - startedAt < BUDGET_WAIT_LIMIT_MS
        ) {
          deprecatePatch(PATCHES.budgetRefusalsReschedule.id);
          log.info('the step could not get the token budget on some of its attempts; scheduling it again', {
            step,
            errorType: jobError.type,
          });
          continue;
        }
        jobMetrics.stepFinished({ priority: input.priority, step, outcome: 'failed', durationMs: Date.now() - startedAt });
        // The upload is unreadable or too large: a retry reads the same bytes, so the client learns why at once.
        if (isInputError(jobError.type) && patched(PATCHES.inputErrorsFailJob.id)) throw new JobFailed(jobError);
        const outcome = await this.deadLetters.park(jobError, this.notify);
        if (outcome !== 'retry') {
          throw new JobFailed(
            outcome === 'expired' ? { ...jobError, message: `${jobError.message} (dead letter expired)` } : jobError,
          );
        }
        log.info('operator retries the failed step', { step });
        startedAt = Date.now();
      }
    }
  };

  /**
   * Runs `work` (one try of a step, or of a fan-out) until it ends without a spend-cap refusal: a refused paid call
   * (a TenantSpendCapReachedError from an activity or child, or SpendCapStopped from a fan-out) puts the job in
   * `budget_wait` on `step` (workflows/spend-cap-wait.ts) until the window turns or the cap is raised, then `work`
   * runs again, `onResumed` first. Every other outcome is `work`'s own. The one wait loop of every job workflow.
   */
  async withSpendCapWaits<T>(step: JobStep, work: () => Promise<T>, onResumed?: () => void): Promise<T> {
    for (;;) {
      try {
        return await work();
      } catch (error) {
        if (isCancellation(error)) throw error;
        // Only code that knows the refusal ever saw it: older histories never take this branch, no patch needed.
        const refusal = spendCapRefusalOf(error);
        if (!refusal) throw error;
        const billed = failureDetailsOf(error)?.billedUsage;
        if (billed) this.tracker.addUsage(billed);
        await this.spendCapWait.wait(step, refusal, this.notify);
        onResumed?.();
      }
    }
  }

  /**
   * Parks the job with a failure that belongs to no single activity (a fan-out's failed chunks) until an operator
   * decides: returns on `retry`, and on `abandon` or expiry ends the job as a failed step does.
   */
  async park(error: StepFailure): Promise<void> {
    const outcome = await this.deadLetters.park(error, this.notify);
    if (outcome !== 'retry') {
      throw new JobFailed(outcome === 'expired' ? { ...error, message: `${error.message} (dead letter expired)` } : error);
    }
    log.info('operator retries the failed step', { step: error.step });
  }

  private reportFinished(status: TerminalStatus): void {
    jobMetrics.jobFinished({
      jobType: this.jobType.name,
      priority: this.input.priority,
      status,
      durationMs: Date.now() - Date.parse(this.input.submittedAt),
      usage: this.state.usage,
    });
  }

  /** Ends the job in a final status of its own choosing, tells the client, and returns what the job knows. */
  async finish(status: Exclude<TerminalStatus, 'failed' | 'cancelled'>): Promise<JobState> {
    this.tracker.setStatus(status);
    this.reportFinished(status);
    await this.notify();
    await this.deleteProviderFiles();
    await condition(allHandlersFinished);
    return this.state;
  }

  /**
   * Runs the type's steps. A cancel (POST /jobs/:id/cancel, i.e. a Temporal cancel request) reaches whatever the
   * job awaits: an activity (which learns it at its next heartbeat), a review, a dead letter, a child. The job
   * then ends `cancelled`, its bookkeeping in a scope the cancel cannot interrupt. An abandoned dead letter, or an
   * input the steps cannot process, fails the workflow with the job's state in the failure's details.
   */
  async settle(steps: () => Promise<JobState>): Promise<JobState> {
    try {
      return await steps();
    } catch (error) {
      if (isCancellation(error)) return CancellationScope.nonCancellable(() => this.endCancelled());
      if (!(error instanceof JobFailed)) throw error;
      const { state, tracker } = this;
      state.error = error.jobError;
      tracker.setStatus('failed', error.jobError.step, error.jobError);
      this.reportFinished('failed');
      await this.notify();
      await this.deleteProviderFiles();
      await condition(allHandlersFinished);
      throw ApplicationFailure.create({
        type: error.jobError.type,
        message: `${error.jobError.step ?? 'job'} failed: ${error.jobError.message}`,
        nonRetryable: true,
        details: [state],
      });
    }
  }

  private async endCancelled(): Promise<JobState> {
    log.info('job cancelled', { step: this.state.step });
    this.tracker.setStatus('cancelled', this.state.step);
    this.reportFinished('cancelled');
    await this.notify();
    await this.deleteProviderFiles();
    await condition(allHandlersFinished);
    return this.state;
  }
}

/**
 * Past this point a job finishes even if a cancel arrives: what it starts (a ledger post) cannot be taken back, so
 * a cancel that comes while it runs is too late. A cancel that came before it still ends the job here.
 */
export async function beyondCancel<T>(work: () => Promise<T>): Promise<T> {
  if (CancellationScope.current().consideredCancelled) throw new CancelledFailure('the job was cancelled');
  return CancellationScope.nonCancellable(work);
}

/** The first detail of an activity's ApplicationFailure (lib/failures.ts): its attempt, and any billed usage. */
function failureDetailsOf(error: unknown): FailureDetails | undefined {
  if (!(error instanceof ActivityFailure) || !(error.cause instanceof ApplicationFailure)) return undefined;
  return error.cause.details?.[0] as FailureDetails | undefined;
}

/**
 * A step that failed with a retryable error after a Redis outage took some of its attempts (counted across attempts,
 * workers/activity-failure-interceptor.ts) did not have the attempts its retry policy gives: it gets fresh ones. The
 * next activity starts its count from zero, so a step that keeps failing for real still parks.
 */
function outageTookAttempts(jobError: StepFailure, error: unknown): boolean {
  return jobError.retryable && (failureDetailsOf(error)?.budgetUnavailableAttempts ?? 0) > 0;
}

/** What the job reports about a failed step. Anything but an activity failure is a bug: let the task retry. */
function describeFailure(step: JobStep, error: unknown): StepFailure {
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
