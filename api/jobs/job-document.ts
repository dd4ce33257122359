import { Readable } from 'node:stream';
import { jobTypeOfWorkflow } from '../../common/job-types/registry';
import { objectKeys, type StoredObject } from '../../lib/object-store';
import { type ApiError, apiErrors } from '../api-error';
import type { JobReader } from './job-reader';
import type { JobsDeps } from './jobs-deps';

/**
 * `GET /jobs/:id/document`: what the job was given. A file job's upload, streamed from the object store (the
 * reviewer page shows it beside the fields); a JSON-input job's input as JSON, read from the job's state, so every
 * job's document link (and every path under a job the API answered a `Location` for) leads somewhere.
 */
export function createOpenDocument(deps: Pick<JobsDeps, 'store'>, reader: JobReader) {
  return async function openDocument(tenantId: string, jobId: string): Promise<StoredObject & { fileName: string }> {
    const job = await reader.getOwnedJob(tenantId, jobId);
    if (jobTypeOfWorkflow(job.type)?.input.kind !== 'file') return inputDocument(reader, job);
    const memo = reader.memoOf(job);
    if (!memo.inputSha256) throw apiErrors.notFound(`the document of job ${jobId}`);
    const stored = await deps.store.open(objectKeys.input(tenantId, memo.inputSha256)).catch(missingAs(apiErrors.notFound(`the document of job ${jobId}`)));
    return { ...stored, fileName: memo.fileName ?? 'document' };
  };
}

/**
 * An object the job names but the bucket no longer holds (retention, an erasure, a manual clean-up while the job is
 * still listed) answers as `notFound`; any other failure stays what it was.
 */
export function missingAs(notFound: ApiError): (error: unknown) => never {
  return (error) => {
    throw (error as { name?: string }).name === 'NoSuchKey' ? notFound : error;
  };
}

async function inputDocument(reader: JobReader, job: Awaited<ReturnType<JobReader['getOwnedJob']>>): Promise<StoredObject & { fileName: string }> {
  const state = await reader.stateOf(job).catch(() => undefined);
  // The input lives in the workflow's state: until a worker answers for it, it cannot be read.
  if (state?.input === undefined) {
    throw apiErrors.noWorkerAnswer('the job’s input');
  }
  const bytes = Buffer.from(JSON.stringify(state.input), 'utf8');
  return { body: Readable.from([bytes]), contentType: 'application/json', contentLength: bytes.length, fileName: 'input.json' };
}
