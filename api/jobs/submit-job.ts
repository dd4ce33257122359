import { createReadStream } from 'node:fs';
import { type WorkflowExecutionDescription, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Job } from '../../common/api-contract/job';
import { jobIdFor } from '../../common/job-id';
import type { InvoiceJobInput } from '../../common/job';
import { JobStatusKey, JobTypeKey, NeedsReviewKey, PriorityKey, TenantIdKey } from '../../common/search-attributes';
import { type Priority, taskQueueFor } from '../../common/task-queues';
import { objectKeys } from '../../lib/object-store';
import type { invoiceWorkflow } from '../../workflows';
import { apiErrors } from '../api-error';
import type { ReceivedUpload } from '../multipart-upload';
import type { JobReader } from './job-reader';
import type { JobsDeps } from './jobs-deps';

export interface SubmitJobInput {
  tenantId: string;
  idempotencyKey: string;
  priority: Priority;
  upload: ReceivedUpload;
  callbackUrl?: string;
}

export interface SubmitJobResult {
  job: Job;
  /** True when the key named an existing job with the same file: nothing new was started. */
  replayed: boolean;
}

/** `POST /jobs`: stores the document and starts its workflow, or finds the job the Idempotency-Key already names. */
export function createSubmitJob(deps: JobsDeps, reader: JobReader) {
  const { client, store, config } = deps;

  function replayOrConflict(existing: WorkflowExecutionDescription, sha256: string): SubmitJobResult {
    if (reader.memoOf(existing).inputSha256 !== sha256) throw apiErrors.idempotencyKeyReused(existing.workflowId);
    return { job: reader.summary(existing), replayed: true };
  }

  return async function submitJob(input: SubmitJobInput): Promise<SubmitJobResult> {
    const jobId = jobIdFor('invoice', input.tenantId, input.idempotencyKey);
    const key = objectKeys.input(input.tenantId, input.upload.sha256);
    // Looking for the job and storing the file run side by side: a new job (the common case) waits for the slower
    // of the two instead of both. The key is content-derived, so a repeated request stores the same object again.
    const [existing] = await Promise.all([
      reader.describe(jobId),
      store.put(key, createReadStream(input.upload.path), {
        contentType: input.upload.contentType,
        contentLength: input.upload.sizeBytes,
      }),
    ]);
    if (existing) return replayOrConflict(existing, input.upload.sha256);

    const submittedAt = new Date().toISOString();
    const workflowInput: InvoiceJobInput = {
      jobId,
      tenantId: input.tenantId,
      priority: input.priority,
      document: {
        bucket: store.bucket,
        key,
        sha256: input.upload.sha256,
        contentType: input.upload.contentType,
        sizeBytes: input.upload.sizeBytes,
        fileName: input.upload.fileName,
      },
      confidenceThreshold: config.jobs.confidenceThreshold,
      reviewTimeoutMs: config.jobs.reviewTimeoutMs,
      maxExtractionTries: config.jobs.maxExtractionTries,
      deadLetterTimeoutMs: config.jobs.deadLetterTimeoutMs,
      ...(input.callbackUrl ? { callbackUrl: input.callbackUrl } : {}),
      submittedAt,
    };
    const memo: Record<string, unknown> = {
      inputSha256: input.upload.sha256,
      fileName: input.upload.fileName,
      priority: input.priority,
      submittedAt,
      tenantId: input.tenantId,
      sizeBytes: input.upload.sizeBytes,
    };
    try {
      await client.workflow.start<typeof invoiceWorkflow>('invoiceWorkflow', {
        workflowId: jobId,
        taskQueue: taskQueueFor(input.priority, config.temporal.taskQueuePrefix),
        args: [workflowInput],
        // A racing duplicate joins the running job; a finished one is never started again.
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        memo,
        typedSearchAttributes: [
          { key: TenantIdKey, value: input.tenantId },
          { key: JobTypeKey, value: 'invoice' },
          { key: JobStatusKey, value: 'queued' },
          { key: PriorityKey, value: input.priority },
          { key: NeedsReviewKey, value: false },
        ],
        staticSummary: `${input.upload.fileName} · ${input.tenantId} · ${input.priority}`,
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
    const description = await reader.describe(jobId);
    if (!description) throw apiErrors.temporalUnavailable();
    if (reader.memoOf(description).inputSha256 !== input.upload.sha256) throw apiErrors.idempotencyKeyReused(jobId);
    // Under a race both callers may have started "the" job; only one run exists, and both report it.
    return { job: reader.summary(description), replayed: reader.memoOf(description).submittedAt !== submittedAt };
  };
}
