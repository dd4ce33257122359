import type { WebhookEvent as WebhookBody, WebhookEventType } from './api-contract/webhook-event';
import type { JobStatus } from './job';

export type { WebhookEventType };

/** A webhook to deliver: its JSON body (the API contract's WebhookEvent) and its id. */
export interface WebhookEvent extends WebhookBody {
  /** Stable across delivery retries, so receivers can drop duplicates: the `webhook-id` header. */
  id: string;
}

export interface DeliverWebhookInput {
  tenantId: string;
  callbackUrl: string;
  event: WebhookEvent;
}

export const WEBHOOK_EVENT_FOR_STATUS: Partial<Record<JobStatus, WebhookEventType>> = {
  awaiting_review: 'job.awaiting_review',
  posted: 'job.posted',
  completed: 'job.completed',
  rejected: 'job.rejected',
  review_expired: 'job.review_expired',
  dead_letter: 'job.failed',
  failed: 'job.failed',
  cancelled: 'job.cancelled',
  budget_wait: 'job.budget_wait',
};

const DELIVERY_ID = /^webhook:(.+):(evt_[^:]+)$/;

/** A delivery's workflow id: one per event, so a repeated start of the same event finds the one running. */
export function webhookDeliveryId(jobId: string, eventId: string): string {
  return `webhook:${jobId}:${eventId}`;
}

/** The job and event a delivery's workflow id names (webhookDeliveryId); nothing for another id. */
export function webhookDeliveryParts(deliveryId: string): { jobId?: string; eventId?: string } {
  const match = DELIVERY_ID.exec(deliveryId);
  return match ? { jobId: match[1], eventId: match[2] } : {};
}
