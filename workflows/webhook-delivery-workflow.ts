import { proxyActivities } from '@temporalio/workflow';
import type { InvoiceActivities } from '../activities';
import { NON_RETRYABLE_ERROR_TYPES } from '../common/errors';
import type { DeliverWebhookInput } from '../common/webhooks';

/** Delivery is retried with backoff for a day: receivers go down for maintenance, and events must not be lost. */
const delivery = proxyActivities<InvoiceActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '24 hours',
  retry: {
    initialInterval: '5 seconds',
    backoffCoefficient: 2,
    maximumInterval: '30 minutes',
    nonRetryableErrorTypes: [...NON_RETRYABLE_ERROR_TYPES],
  },
});

/** One webhook event to one callback URL, signed (Standard Webhooks) by the activity. */
export async function deliverWebhookWorkflow(input: DeliverWebhookInput): Promise<void> {
  await delivery.deliverWebhook(input);
}
