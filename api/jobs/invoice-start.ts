import type { DocumentRef, InvoiceJobInput } from '../../common/job';
import { JobStatusKey, JobTypeKey, NeedsReviewKey, PriorityKey, TenantIdKey } from '../../common/search-attributes';
import { type Priority, taskQueueFor } from '../../common/task-queues';
import type { JobsDeps } from './jobs-deps';

export interface InvoiceStartInput {
  jobId: string;
  tenantId: string;
  priority: Priority;
  document: DocumentRef;
  callbackUrl?: string;
  submittedAt: string;
}

/** How an invoice job starts: its workflow, queue, input, memo and the search attributes the lists filter on. */
export function invoiceStart(config: JobsDeps['config'], input: InvoiceStartInput) {
  const workflowInput: InvoiceJobInput = {
    jobId: input.jobId,
    tenantId: input.tenantId,
    priority: input.priority,
    document: input.document,
    confidenceThreshold: config.jobs.confidenceThreshold,
    reviewTimeoutMs: config.jobs.reviewTimeoutMs,
    maxExtractionTries: config.jobs.maxExtractionTries,
    deadLetterTimeoutMs: config.jobs.deadLetterTimeoutMs,
    ...(input.callbackUrl ? { callbackUrl: input.callbackUrl } : {}),
    submittedAt: input.submittedAt,
  };
  return {
    workflowType: 'invoiceWorkflow',
    taskQueue: taskQueueFor(input.priority, config.temporal.taskQueuePrefix),
    args: [workflowInput],
    memo: {
      inputSha256: input.document.sha256,
      fileName: input.document.fileName,
      priority: input.priority,
      submittedAt: input.submittedAt,
      tenantId: input.tenantId,
      sizeBytes: input.document.sizeBytes,
    },
    typedSearchAttributes: [
      { key: TenantIdKey, value: input.tenantId },
      { key: JobTypeKey, value: 'invoice' },
      { key: JobStatusKey, value: 'queued' },
      { key: PriorityKey, value: input.priority },
      { key: NeedsReviewKey, value: false },
    ],
    staticSummary: `${input.document.fileName} · ${input.tenantId} · ${input.priority}`,
  };
}
