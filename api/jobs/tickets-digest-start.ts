import { readFile } from 'node:fs/promises';
import type { SearchAttributePair } from '@temporalio/common';
import {
  TICKETS_DIGEST,
  TICKETS_DIGEST_WORKFLOW,
  type TicketsDigestInput,
} from '../../common/job-types/tickets-digest/definition';
import { TICKETS_LIMITS } from '../../common/job-types/tickets-digest/ticket';
import { parseTicketsJsonl } from '../../common/job-types/tickets-digest/tickets-jsonl';
import type { DocumentRef } from '../../common/job';
import { JobStatusKey, JobTypeKey, NeedsReviewKey, PriorityKey, TenantIdKey } from '../../common/search-attributes';
import { type Priority, taskQueueFor } from '../../common/task-queues';
import { ApiError, apiErrors } from '../api-error';
import type { ReceivedUpload } from '../multipart-upload';
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

/**
 * A digest's upload is a JSONL file of tickets: checked here, line by line, so a bad export is a 4xx naming its
 * first bad line instead of a job that fails minutes later.
 */
export async function checkTicketsUpload(upload: ReceivedUpload): Promise<void> {
  if (upload.contentType !== 'text/plain') {
    throw new ApiError(415, 'unsupported_media_type', `a ${TICKETS_DIGEST} input is a JSONL text file, one ticket per line`);
  }
  if (upload.sizeBytes > TICKETS_LIMITS.maxBytes) throw apiErrors.payloadTooLarge(TICKETS_LIMITS.maxBytes);
  const checked = parseTicketsJsonl(await readFile(upload.path, 'utf8'));
  if (checked.ok) return;
  if (checked.kind === 'too_many') {
    throw new ApiError(413, 'payload_too_large', `the file has more than ${checked.limit} tickets; split the day`, {
      limitTickets: checked.limit,
    });
  }
  throw apiErrors.invalidRequest(checked.message, { field: 'file', line: checked.line });
}
