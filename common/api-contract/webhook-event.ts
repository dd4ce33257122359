import { type Static, Type } from '@sinclair/typebox';
import { BudgetWait, JobError } from './job-parts';
import { closed, dateTime, ref, stringEnum } from './schema-kit';
import { JobResult } from './job-types';
import { JobStatus, JobType } from './vocabulary';

export const WEBHOOK_EVENT_TYPES = [
  'job.awaiting_review',
  'job.posted',
  'job.rejected',
  'job.review_expired',
  'job.failed',
  'job.completed',
  'job.cancelled',
  'job.budget_wait',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The JSON body of a webhook (Standard Webhooks: `type`, `timestamp`, `data`); its id travels as `webhook-id`. */
export const WebhookEvent = closed({
  type: stringEnum(WEBHOOK_EVENT_TYPES),
  timestamp: dateTime(),
  data: closed({
    jobId: Type.String(),
    tenantId: Type.String(),
    jobType: Type.Optional(ref('JobType', JobType)),
    status: ref('JobStatus', JobStatus),
    error: Type.Optional(ref('JobError', JobError)),
    ledgerEntryId: Type.Optional(Type.String()),
    budgetWait: Type.Optional(ref('BudgetWait', BudgetWait, { description: 'On `job.budget_wait`: which spend cap of the tenant is reached and when the job resumes.' })),
    result: Type.Optional(ref('JobResult', JobResult, { description: 'On the final event of a type whose webhook carries its result.' })),
  }),
});
export type WebhookEvent = Static<typeof WebhookEvent>;
