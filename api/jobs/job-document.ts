import { jobTypeOfWorkflow } from '../../common/job-types/registry';
import { objectKeys, type StoredObject } from '../../lib/object-store';
import { apiErrors } from '../api-error';
import type { JobReader } from './job-reader';
import type { JobsDeps } from './jobs-deps';

/** `GET /jobs/:id/document`: the uploaded document, streamed from the object store (the reviewer page shows it beside the fields). */
export function createOpenDocument(deps: Pick<JobsDeps, 'store'>, reader: JobReader) {
  return async function openDocument(tenantId: string, jobId: string): Promise<StoredObject & { fileName: string }> {
    const job = await reader.getOwnedJob(tenantId, jobId);
    const memo = reader.memoOf(job);
    // A JSON-input job (order.score) has no uploaded document: its input's hash names nothing in the store.
    const takesFile = jobTypeOfWorkflow(job.type)?.input.kind === 'file';
    if (!memo.inputSha256 || !takesFile) throw apiErrors.notFound(`the document of job ${jobId}`);
    const stored = await deps.store.open(objectKeys.input(tenantId, memo.inputSha256)).catch((error: unknown) => {
      // Removed from the bucket (retention, a manual clean-up) while the job is still listed.
      if ((error as { name?: string }).name === 'NoSuchKey') throw apiErrors.notFound(`the document of job ${jobId}`);
      throw error;
    });
    return { ...stored, fileName: memo.fileName ?? 'document' };
  };
}
