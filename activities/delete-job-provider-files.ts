import { ApplicationFailure } from '@temporalio/common';
import type { ProviderFiles } from '../gateway/files/provider-files';
import type { ObjectStore } from '../lib/object-store';
import { deleteJobProviderFiles as deleteFilesOfJob } from '../lib/provider-files/job-provider-files';

export interface DeleteJobProviderFilesInput {
  tenantId: string;
  jobId: string;
}

/**
 * The job's end: every scan it uploaded to the provider's Files API goes (a job that uploaded nothing costs one S3
 * listing). What a failed cleanup leaves, the retention sweep deletes (activities/retention/sweep-provider-files.ts).
 */
export function createDeleteJobProviderFiles(deps: { store: ObjectStore; files: ProviderFiles | undefined }) {
  return async function deleteJobProviderFiles(input: DeleteJobProviderFilesInput): Promise<{ deleted: number }> {
    if (!deps.files) {
      throw ApplicationFailure.create({ type: 'ProviderFilesUnavailable', message: 'this worker was built without the Files API client', nonRetryable: true });
    }
    return deleteFilesOfJob({ store: deps.store, files: deps.files }, input);
  };
}
