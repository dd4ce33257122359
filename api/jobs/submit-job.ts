import { createReadStream } from 'node:fs';
import { type WorkflowExecutionDescription, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Job } from '../../common/api-contract/job';
import { jobIdFor } from '../../common/job-id';
import type { JobType } from '../../common/job';
import type { Priority } from '../../common/task-queues';
import { objectKeys } from '../../lib/object-store';
import { apiErrors } from '../api-error';
import type { ReceivedUpload } from '../multipart-upload';
import type { JobReader } from './job-reader';
import type { JobsDeps } from './jobs-deps';
import { invoiceStart } from './invoice-start';
import { checkFileInput } from './check-file-input';
import { ticketsDigestStart } from './tickets-digest-start';
import { jobTypeNamed } from '../../common/job-types/registry';

export interface SubmitJobInput {
  type: JobType;
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
    const jobId = jobIdFor(input.type, input.tenantId, input.idempotencyKey);
    const existing = await reader.describe(jobId);
    if (existing) return replayOrConflict(existing, input.upload.sha256);
    const definition = jobTypeNamed(input.type);
    if (!definition) throw apiErrors.invalidRequest(`unknown job type "${input.type}"`, { field: 'type' });
    await checkFileInput(definition, input.upload);

    const key = objectKeys.input(input.tenantId, input.upload.sha256);
    await store.put(key, createReadStream(input.upload.path), {
      contentType: input.upload.contentType,
      contentLength: input.upload.sizeBytes,
    });
    const submittedAt = new Date().toISOString();
    const document = {
      bucket: store.bucket,
      key,
      sha256: input.upload.sha256,
      contentType: input.upload.contentType,
      sizeBytes: input.upload.sizeBytes,
      fileName: input.upload.fileName,
    };
    const callback = input.callbackUrl ? { callbackUrl: input.callbackUrl } : {};
    const start =
      input.type === 'tickets.digest'
        ? ticketsDigestStart(config, { tenantId: input.tenantId, priority: input.priority, tickets: document, jobId, submittedAt, ...callback })
        : invoiceStart(config, { tenantId: input.tenantId, priority: input.priority, document, jobId, submittedAt, ...callback });
    try {
      await client.workflow.start(start.workflowType, {
        workflowId: jobId,
        taskQueue: start.taskQueue,
        args: start.args,
        // A racing duplicate joins the running job; a finished one is never started again.
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        memo: start.memo,
        typedSearchAttributes: start.typedSearchAttributes,
        staticSummary: start.staticSummary,
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
