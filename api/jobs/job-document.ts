import { objectKeys, type StoredObject } from '../../lib/object-store';
import { apiErrors } from '../api-error';
import type { JobReader } from './job-reader';
import type { JobsDeps } from './jobs-deps';

/** `GET /jobs/:id/document`: the uploaded document, streamed from the object store (the reviewer page shows it beside the fields). */
export function createOpenDocument(deps: Pick<JobsDeps, 'store'>, reader: JobReader) {
  return async function openDocument(tenantId: string, jobId: string): Promise<StoredObject & { fileName: string }> {
    const memo = reader.memoOf(await reader.getOwnedJob(tenantId, jobId));
    if (!memo.inputSha256) throw apiErrors.notFound(`the document of job ${jobId}`);
    const stored = await deps.store.open(objectKeys.input(tenantId, memo.inputSha256));
    return { ...stored, fileName: memo.fileName ?? 'document' };
  };
}
