import { ApplicationFailure, isCancellation, proxyActivities, TemporalFailure, TimeoutFailure } from '@temporalio/workflow';
import type { JobActivities } from '../activities';
import { NON_RETRYABLE_ERROR_TYPES } from '../common/errors';
import type { DeliverWebhookInput } from '../common/webhooks';
import { jobMetrics } from './job-metrics';

/** Delivery is retried with backoff for a day: receivers go down for maintenance, and events must not be lost. */
const delivery = proxyActivities<JobActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '24 hours',
  retry: {
    initialInterval: '5 seconds',
    backoffCoefficient: 2,
    maximumInterval: '30 minutes',
    nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES],
  },
});

/**
 * One webhook event to one callback URL, signed (Standard Webhooks) by the activity. A delivery that fails has been
 * given up: it is counted (the sink writes nothing to history, so older runs replay unchanged) and the run fails, so
 * an operator can find it and reset it to deliver the same event again (ops/webhook-redelivery.ts).
 */
export async function deliverWebhookWorkflow(input: DeliverWebhookInput): Promise<void> {
  try {
    await delivery.deliverWebhook(input);
  } catch (error) {
    if (!isCancellation(error)) jobMetrics.webhookGivenUp({ errorType: givenUpType(error) });
    throw error;
  }
}

/** The innermost application failure's type (the activity's error class), else `Timeout`. */
function givenUpType(error: unknown): string {
  let type = 'Unknown';
  for (let cause: unknown = error; cause instanceof TemporalFailure; cause = cause.cause) {
    if (cause instanceof ApplicationFailure && cause.type) type = cause.type;
    else if (cause instanceof TimeoutFailure) type = 'Timeout';
  }
  return type;
}
