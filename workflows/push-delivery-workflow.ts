import { isCancellation, log, proxyActivities } from '@temporalio/workflow';
import type { JobActivities } from '../activities';
import { NON_RETRYABLE_ERROR_TYPES } from '../common/errors';
import type { PushNotification } from '../common/push';
import { deliveryOptions } from './activity-options';
import { givenUpType } from './given-up-type';
import { jobMetrics } from './job-metrics';

/** Finding the subscribers is one S3 list; a store that is down for a while still gets its pushes out. */
const lookup = proxyActivities<JobActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '1 hour',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes', nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES] },
});

/** Each push is retried like a webhook (deliveryOptions): the activity answers 404/410 itself. */
const delivery = proxyActivities<JobActivities>(deliveryOptions);

export interface PushDeliverySummary {
  delivered: number;
  gone: number;
  failed: number;
}

/**
 * One job event to every Web Push subscription that follows it, each delivered on its own: one subscriber's dead
 * push service neither delays nor fails the others. A push given up is logged and counted in the result, not
 * failed: a notification a day late is worth less than the job's own status, which the client can always read.
 */
export async function deliverPushWorkflow(input: PushNotification): Promise<PushDeliverySummary> {
  const { tenantId, message } = input;
  const jobId = message.data.jobId;
  const targets = (await Promise.all(input.scopes.map((scope) => lookup.findPushTargets({ tenantId, scope, jobId })))).flat();
  const outcomes = await Promise.allSettled(targets.map((target) => delivery.deliverPush({ tenantId, target, message })));
  const summary: PushDeliverySummary = { delivered: 0, gone: 0, failed: 0 };
  for (const outcome of outcomes) {
    if (outcome.status === 'fulfilled') summary[outcome.value.outcome]++;
    else if (isCancellation(outcome.reason)) throw outcome.reason;
    else {
      summary.failed++;
      jobMetrics.pushGivenUp({ errorType: givenUpType(outcome.reason) });
      log.warn('a push was given up', { jobId, error: outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason) });
    }
  }
  return summary;
}
