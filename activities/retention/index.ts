import { ApplicationFailure } from '@temporalio/common';
import { createEraseExpiredJobs } from './erase-expired-jobs';
import { createListExpiredJobs } from './list-expired-jobs';
import { createSweepProviderFiles } from './sweep-provider-files';
import type { RetentionDeps } from './retention-deps';

/** The retention sweep's activities; a worker built without a Temporal client (some tests) refuses them. */
export function createRetentionActivities(deps: RetentionDeps | undefined) {
  if (!deps) {
    const refuse = async (): Promise<never> => {
      throw ApplicationFailure.create({ type: 'RetentionSweepUnavailable', message: 'this worker was built without a Temporal client for the retention sweep', nonRetryable: true });
    };
    return {
      listExpiredJobs: refuse as ReturnType<typeof createListExpiredJobs>,
      eraseExpiredJobs: refuse as ReturnType<typeof createEraseExpiredJobs>,
      sweepProviderFiles: refuse as ReturnType<typeof createSweepProviderFiles>,
    };
  }
  return { listExpiredJobs: createListExpiredJobs(deps), eraseExpiredJobs: createEraseExpiredJobs(deps), sweepProviderFiles: createSweepProviderFiles(deps) };
}

export type RetentionActivities = ReturnType<typeof createRetentionActivities>;
