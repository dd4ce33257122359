import { WorkflowNotFoundError } from '@temporalio/client';
import type { ProviderFilesSweepPage } from '../../common/retention';
import { deleteJobProviderFiles, providerFileKeys } from '../../lib/provider-files/job-provider-files';
import { withHeartbeats } from '../heartbeat';
import type { RetentionDeps } from './retention-deps';

/**
 * The leftovers of jobs that ended without deleting their uploaded scans (a cleanup that failed, a worker that
 * died in it, a job terminated by hand): the jobs under `provider-files/` whose run is closed or gone lose their
 * files, a page of jobs per call. A running job keeps its files: its steps still name them.
 */
export function createSweepProviderFiles(deps: RetentionDeps) {
  return async function sweepProviderFiles(input: { after?: string; limit: number }): Promise<ProviderFilesSweepPage> {
    const files = deps.providerFiles;
    if (!files) return { jobs: 0, files: 0 };
    return withHeartbeats(async () => {
      const jobs: Array<{ tenantId: string; jobId: string; lastKey: string }> = [];
      for await (const key of deps.store.list(providerFileKeys.root, input.after ? { startAfter: input.after } : {})) {
        const job = providerFileKeys.jobOf(key);
        if (!job) continue;
        const last = jobs.at(-1);
        if (last && last.tenantId === job.tenantId && last.jobId === job.jobId) {
          last.lastKey = key;
          continue;
        }
        if (jobs.length === input.limit) break;
        jobs.push({ ...job, lastKey: key });
      }
      let swept = 0;
      let deleted = 0;
      for (const job of jobs) {
        if (await stillRuns(deps, job.jobId)) continue;
        deleted += (await deleteJobProviderFiles({ store: deps.store, files }, job)).deleted;
        swept++;
      }
      if (swept > 0) deps.log.info({ jobs: swept, files: deleted }, 'retention sweep deleted the uploaded scans of ended jobs');
      const next = jobs.length === input.limit ? jobs.at(-1)?.lastKey : undefined;
      return { jobs: swept, files: deleted, ...(next ? { next } : {}) };
    });
  };
}

async function stillRuns(deps: RetentionDeps, jobId: string): Promise<boolean> {
  try {
    return (await deps.client.workflow.getHandle(jobId).describe()).status.name === 'RUNNING';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}
