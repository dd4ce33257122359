import { isCancellation, proxyActivities } from '@temporalio/workflow';
import type { JobActivities } from '../activities';
import type { DeliverWebhookInput } from '../common/webhooks';
import { deliveryOptions } from './activity-options';
import { givenUpType } from './given-up-type';
import { jobMetrics } from './job-metrics';

const delivery = proxyActivities<JobActivities>(deliveryOptions);

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
