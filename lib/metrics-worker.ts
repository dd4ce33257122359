import { Counter, Histogram, type Registry } from 'prom-client';
import { BUCKETS, METRIC_PREFIX } from './metrics';

/** What a worker process measures: jobs and steps (from the workflow, through sinks) and activity attempts. */
export function createWorkerMetrics(registry: Registry) {
  const registers = [registry];
  const name = (suffix: string) => `${METRIC_PREFIX}${suffix}`;
  return {
    registry,
    jobsFinished: new Counter({
      name: name('jobs_finished_total'),
      help: 'Jobs that reached a final status (posted, rejected, review_expired, failed)',
      labelNames: ['job_type', 'priority', 'status'] as const,
      registers,
    }),
    jobDuration: new Histogram({
      name: name('job_duration_seconds'),
      help: 'End-to-end job latency, from submission to its final status (review and dead-letter waits included)',
      labelNames: ['job_type', 'priority', 'status'] as const,
      buckets: BUCKETS.jobSeconds,
      registers,
    }),
    jobTokens: new Histogram({
      name: name('job_tokens'),
      help: 'Model tokens one job used in total, by direction (input, output)',
      labelNames: ['job_type', 'priority', 'direction'] as const,
      buckets: BUCKETS.tokens,
      registers,
    }),
    jobCost: new Histogram({
      name: name('job_cost_usd'),
      help: 'Model cost of one job in USD (price table in MODEL_PRICES)',
      labelNames: ['job_type', 'priority'] as const,
      buckets: BUCKETS.costUsd,
      registers,
    }),
    stepDuration: new Histogram({
      name: name('step_duration_seconds'),
      help: "A step's latency from scheduling to its final result, Temporal's retries and backoff included",
      labelNames: ['step', 'priority', 'outcome'] as const,
      buckets: BUCKETS.stepSeconds,
      registers,
    }),
    deadLetters: new Counter({
      name: name('dead_letters_total'),
      help: 'Jobs parked as dead letters after a step failed for good',
      labelNames: ['step', 'error_type', 'priority'] as const,
      registers,
    }),
    deadLetterDecisions: new Counter({
      name: name('dead_letter_decisions_total'),
      help: 'How parked jobs left the dead-letter state: retry, abandon or expired',
      labelNames: ['step', 'outcome', 'priority'] as const,
      registers,
    }),
    reviewWait: new Histogram({
      name: name('review_wait_seconds'),
      help: 'How long a job waited for a reviewer, by outcome (approved, rejected, expired)',
      labelNames: ['priority', 'outcome'] as const,
      buckets: BUCKETS.reviewSeconds,
      registers,
    }),
    webhooksGivenUp: new Counter({
      name: name('webhook_deliveries_given_up_total'),
      help: 'Webhook deliveries that ended without a 2xx (410 Gone, a refused URL, a day of retries): redeliver them from /admin/webhooks',
      labelNames: ['error_type'] as const,
      registers,
    }),
    pushesGivenUp: new Counter({
      name: name('push_deliveries_given_up_total'),
      help: 'Web Push deliveries given up after a day of retries (a 404/410 from the push service removes the subscription instead)',
      labelNames: ['error_type'] as const,
      registers,
    }),
    activityAttempts: new Counter({
      name: name('activity_attempts_total'),
      help: 'Activity attempts this worker ran, by outcome (completed, failed)',
      labelNames: ['activity', 'task_queue', 'outcome'] as const,
      registers,
    }),
    activityDuration: new Histogram({
      name: name('activity_attempt_duration_seconds'),
      help: 'How long one activity attempt ran on this worker',
      labelNames: ['activity', 'outcome'] as const,
      buckets: BUCKETS.stepSeconds,
      registers,
    }),
    activityFailures: new Counter({
      name: name('activity_failures_total'),
      help: 'Failed activity attempts by error type and whether the error is retryable',
      labelNames: ['activity', 'error_type', 'retryable'] as const,
      registers,
    }),
    retries: new Counter({
      name: name('retries_total'),
      help: 'Failed attempts that Temporal retries (retryable error, attempts left), by error type',
      labelNames: ['activity', 'error_type'] as const,
      registers,
    }),
    tokens: new Counter({
      name: name('model_tokens_total'),
      help: 'Model tokens used by completed model steps, by direction (input, output)',
      labelNames: ['activity', 'tenant', 'priority', 'direction'] as const,
      registers,
    }),
    cost: new Counter({
      name: name('model_cost_usd_total'),
      help: 'Model cost in USD of completed model steps, by the lane the calls took (live, batch at half price)',
      labelNames: ['activity', 'tenant', 'priority', 'lane'] as const,
      registers,
    }),
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
