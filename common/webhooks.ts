import type { JobError, JobStatus } from './job';

export type WebhookEventType =
  | 'job.awaiting_review'
  | 'job.posted'
  | 'job.rejected'
  | 'job.review_expired'
  | 'job.failed';

/** The JSON body of a webhook (Standard Webhooks: `type`, `timestamp`, `data`). */
export interface WebhookEvent {
  /** Stable across delivery retries, so receivers can drop duplicates: the `webhook-id` header. */
  id: string;
  type: WebhookEventType;
  timestamp: string;
  data: {
    jobId: string;
    tenantId: string;
    status: JobStatus;
    error?: JobError;
    ledgerEntryId?: string;
  };
}

export interface DeliverWebhookInput {
  tenantId: string;
  callbackUrl: string;
  event: WebhookEvent;
}

export const WEBHOOK_EVENT_FOR_STATUS: Partial<Record<JobStatus, WebhookEventType>> = {
  awaiting_review: 'job.awaiting_review',
  posted: 'job.posted',
  rejected: 'job.rejected',
  review_expired: 'job.review_expired',
  dead_letter: 'job.failed',
  failed: 'job.failed',
};
