import type { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, Next } from '@temporalio/worker';
import { SlowlaneError } from '../common/errors';
import type { WorkerMetrics } from './metrics-worker';
import type { Usage } from '../common/job';

interface FailureKind {
  type: string;
  retryable: boolean;
}

/** An activity failure's type and whether Temporal may retry it, whichever layer it was thrown from. */
export function failureKind(error: unknown, nonRetryableTypes: readonly string[] = []): FailureKind {
  if (error instanceof ApplicationFailure) {
    const type = error.type ?? 'Error';
    return { type, retryable: !error.nonRetryable && !nonRetryableTypes.includes(type) };
  }
  if (error instanceof CancelledFailure) return { type: 'Cancelled', retryable: false };
  if (error instanceof SlowlaneError) return { type: error.name, retryable: error.retryable };
  if (error instanceof Error) return { type: error.name, retryable: !nonRetryableTypes.includes(error.name) };
  return { type: 'Unknown', retryable: true };
}

interface ModelStepResult {
  usage: Pick<Usage, 'inputTokens' | 'outputTokens' | 'costUsd' | 'byLane'>;
}

function hasUsage(result: unknown): result is ModelStepResult {
  const usage = (result as Partial<ModelStepResult> | null)?.usage;
  return typeof usage?.inputTokens === 'number' && typeof usage.outputTokens === 'number';
}

/**
 * Counts every activity attempt this worker runs: outcome, duration, failures by type, the retries Temporal will
 * make, and the tokens and cost of model steps. Sits outside the failure translation, so it sees the final type.
 */
export class ActivityMetricsInterceptor implements ActivityInboundCallsInterceptor {
  constructor(
    private readonly metrics: WorkerMetrics,
    private readonly ctx: Context,
  ) {}

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const { activityType: activity, taskQueue, attempt, retryPolicy } = this.ctx.info;
    const stopTimer = this.metrics.activityDuration.startTimer({ activity });
    try {
      const result = await next(input);
      stopTimer({ outcome: 'completed' });
      this.metrics.activityAttempts.inc({ activity, task_queue: taskQueue, outcome: 'completed' });
      if (hasUsage(result)) this.countUsage(activity, input.args[0], result.usage);
      return result;
    } catch (error) {
      stopTimer({ outcome: 'failed' });
      this.metrics.activityAttempts.inc({ activity, task_queue: taskQueue, outcome: 'failed' });
      const kind = failureKind(error, retryPolicy?.nonRetryableErrorTypes ?? []);
      this.metrics.activityFailures.inc({ activity, error_type: kind.type, retryable: String(kind.retryable) });
      const maximumAttempts = retryPolicy?.maximumAttempts ?? 0;
      const attemptsLeft = maximumAttempts === 0 || attempt < maximumAttempts;
      if (kind.retryable && attemptsLeft) this.metrics.retries.inc({ activity, error_type: kind.type });
      throw error;
    }
  }

  private countUsage(activity: string, firstArg: unknown, usage: ModelStepResult['usage']): void {
    const { tenantId = 'unknown', priority = 'unknown' } = (firstArg ?? {}) as { tenantId?: string; priority?: string };
    const labels = { activity, tenant: tenantId, priority };
    this.metrics.tokens.inc({ ...labels, direction: 'input' }, usage.inputTokens);
    this.metrics.tokens.inc({ ...labels, direction: 'output' }, usage.outputTokens);
    // Each lane's share of the cost under its own label; cost no lane claims (older results) was live.
    const batchUsd = usage.byLane?.batch?.costUsd ?? 0;
    if (batchUsd > 0) this.metrics.cost.inc({ ...labels, lane: 'batch' }, batchUsd);
    this.metrics.cost.inc({ ...labels, lane: 'live' }, Math.max(0, usage.costUsd - batchUsd));
  }
}
