import type { SearchAttributePair } from '@temporalio/common';
import {
  TICKETS_DIGEST,
  TICKETS_DIGEST_WORKFLOW,
  type TicketsDigestInput,
} from '../../common/job-types/tickets-digest/definition';
import type { DocumentRef } from '../../common/job';
import { JobStatusKey, JobTypeKey, NeedsReviewKey, PriorityKey, TenantIdKey } from '../../common/search-attributes';
import { type Priority, taskQueueFor } from '../../common/task-queues';
import type { JobsDeps } from './jobs-deps';

export interface TicketsDigestStartInput {
  tenantId: string;
  priority: Priority;
  tickets: DocumentRef;
  callbackUrl?: string;
  /** Set for a submitted job; a schedule's runs have theirs made by Temporal from the action's id and the time. */
  jobId?: string;
  submittedAt?: string;
  scheduleId?: string;
}

/** How a digest starts: the same for `POST /jobs` and for a schedule's action, so a scheduled run is an ordinary job. */
export interface WorkflowStart {
  workflowType: string;
  taskQueue: string;
  args: [TicketsDigestInput];
  memo: Record<string, unknown>;
  typedSearchAttributes: SearchAttributePair[];
  staticSummary: string;
}

export function ticketsDigestStart(config: JobsDeps['config'], input: TicketsDigestStartInput): WorkflowStart {
  const args: TicketsDigestInput = {
    tenantId: input.tenantId,
    priority: input.priority,
    tickets: input.tickets,
    confidenceThreshold: config.jobs.confidenceThreshold,
    reviewTimeoutMs: config.jobs.reviewTimeoutMs,
    maxExtractionTries: config.jobs.maxExtractionTries,
    deadLetterTimeoutMs: config.jobs.deadLetterTimeoutMs,
    ...(input.jobId ? { jobId: input.jobId } : {}),
    ...(input.callbackUrl ? { callbackUrl: input.callbackUrl } : {}),
    ...(input.submittedAt ? { submittedAt: input.submittedAt } : {}),
    ...(input.scheduleId ? { scheduleId: input.scheduleId } : {}),
  };
  return {
    workflowType: TICKETS_DIGEST_WORKFLOW,
    taskQueue: taskQueueFor(input.priority, config.temporal.taskQueuePrefix),
    args: [args],
    memo: {
      inputSha256: input.tickets.sha256,
      fileName: input.tickets.fileName,
      priority: input.priority,
      tenantId: input.tenantId,
      sizeBytes: input.tickets.sizeBytes,
      ...(input.submittedAt ? { submittedAt: input.submittedAt } : {}),
      ...(input.scheduleId ? { scheduleId: input.scheduleId } : {}),
    },
    typedSearchAttributes: [
      { key: TenantIdKey, value: input.tenantId },
      { key: JobTypeKey, value: TICKETS_DIGEST },
      { key: JobStatusKey, value: 'queued' },
      { key: PriorityKey, value: input.priority },
      { key: NeedsReviewKey, value: false },
    ],
    staticSummary: `${TICKETS_DIGEST} of ${input.tickets.fileName} · ${input.tenantId} · ${input.priority}${input.scheduleId ? ` · schedule ${input.scheduleId}` : ''}`,
  };
}
