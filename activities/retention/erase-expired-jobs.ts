import { WorkflowNotFoundError } from '@temporalio/client';
import { jobTypeNamed } from '../../common/job-types/registry';
import { addSweepTotals, type ExpiredJob, NO_SWEEP_TOTALS, type SweepTotals } from '../../common/retention';
import { JobTypeKey } from '../../common/search-attributes';
import { eraseClosedJob } from '../../lib/erasure/erase-closed-job';
import type { ContentMemo } from '../../lib/erasure/job-objects';
import { withHeartbeats } from '../heartbeat';
import type { RetentionDeps } from './retention-deps';

const REASON = "erased by the retention sweep: closed longer ago than its tenant's retention";

/**
 * Erases each listed job as `DELETE /jobs/:id` does (lib/erasure/erase-closed-job.ts), after a fresh look: a job
 * reset or started again under its id since it was listed runs or closed within the retention, and is kept.
 */
export function createEraseExpiredJobs(deps: RetentionDeps) {
  return async function eraseExpiredJobs(input: { jobs: ExpiredJob[] }): Promise<SweepTotals> {
    return withHeartbeats(async () => {
      let totals = NO_SWEEP_TOTALS;
      for (const job of input.jobs) totals = addSweepTotals(totals, await eraseIfExpired(deps, job));
      return totals;
    });
  };
}

async function eraseIfExpired(deps: RetentionDeps, job: ExpiredJob): Promise<SweepTotals> {
  let description;
  try {
    description = await deps.client.workflow.getHandle(job.jobId).describe();
  } catch (error) {
    // Erased meanwhile (DELETE /jobs/:id, or this sweep's earlier attempt): nothing left to do.
    if (error instanceof WorkflowNotFoundError) return NO_SWEEP_TOTALS;
    throw error;
  }
  const closedAt = description.closeTime;
  if (description.status.name === 'RUNNING' || !closedAt || closedAt.toISOString() >= job.closedBefore) {
    return { ...NO_SWEEP_TOTALS, jobsKept: 1 };
  }
  const type = description.typedSearchAttributes.get(JobTypeKey);
  const erasure = await eraseClosedJob(deps, {
    tenantId: job.tenantId,
    jobId: job.jobId,
    runId: description.runId,
    definition: type === undefined ? undefined : jobTypeNamed(type),
    memo: (description.memo ?? {}) as ContentMemo,
    reason: REASON,
  });
  deps.log.info({ tenantId: job.tenantId, jobId: job.jobId, closedAt: closedAt.toISOString(), ...erasure.erased, sharedObjectsKept: erasure.kept.sharedObjects }, 'retention sweep erased a job');
  return {
    jobs: 1,
    objects: erasure.erased.objects,
    executions: erasure.erased.executions,
    sharedObjectsKept: erasure.kept.sharedObjects,
    jobsKept: 0,
  };
}
