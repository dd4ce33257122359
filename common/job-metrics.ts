import type { Sinks } from '@temporalio/workflow';
import type { JobStep, TerminalStatus, Usage } from './job';
import type { Priority } from './task-queues';

export type StepOutcome = 'completed' | 'failed';
export type DeadLetterOutcome = 'retry' | 'abandon' | 'expired' | 'cancelled';
export type ReviewOutcome = 'approved' | 'rejected' | 'expired';

export interface JobFinished {
  jobType: string;
  priority: Priority;
  status: TerminalStatus;
  /** From submission to the end, in workflow time. */
  durationMs: number;
  usage: Usage;
}

export interface StepFinished {
  priority: Priority;
  step: JobStep;
  outcome: StepOutcome;
  /** From scheduling to the activity's final result, Temporal's retries and backoff included. */
  durationMs: number;
}

export interface DeadLettered {
  priority: Priority;
  step: JobStep;
  errorType: string;
}

export interface DeadLetterDecided {
  priority: Priority;
  step: JobStep;
  outcome: DeadLetterOutcome;
}

export interface ReviewFinished {
  priority: Priority;
  outcome: ReviewOutcome;
  waitMs: number;
}

export interface WebhookGivenUp {
  /**
   * Why the delivery ended without a 2xx: the last failure's type (WebhookRejectedError for a 410 or a refused URL,
   * WebhookDeliveryFailedError once a day of retries ran out), or `Timeout`.
   */
  errorType: string;
}

/**
 * What the workflow tells the worker's Prometheus registry. Sinks are not called while a workflow replays, so a
 * worker restart does not count a job twice, and nothing here is written to history.
 */
export interface JobMetricsSinks extends Sinks {
  jobMetrics: {
    jobFinished(event: JobFinished): void;
    stepFinished(event: StepFinished): void;
    deadLettered(event: DeadLettered): void;
    deadLetterDecided(event: DeadLetterDecided): void;
    reviewFinished(event: ReviewFinished): void;
    webhookGivenUp(event: WebhookGivenUp): void;
    /** A Web Push given up after its retries (a 404/410 removes the subscription and is not a give-up). */
    pushGivenUp(event: WebhookGivenUp): void;
  };
}
