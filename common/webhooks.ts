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
