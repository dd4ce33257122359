import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import { jobTypeNamed } from '../../common/job-types/registry';
import { addSweepTotals, type ExpiredJob, NO_SWEEP_TOTALS, RETENTION_SWEEP_WORKFLOW_ID, type SweepTotals } from '../../common/retention';
import { JobTypeKey } from '../../common/search-attributes';
import { eraseClosedJob } from '../../lib/erasure/erase-closed-job';
import type { ContentMemo } from '../../lib/erasure/job-objects';
import { withHeartbeats } from '../heartbeat';
import type { RetentionDeps } from './retention-deps';

const REASON = "erased by the retention sweep: closed longer ago than its tenant's retention";
const ACTOR = { kind: 'system', id: 'system:retention', via: 'schedule' } as const;

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
  // The sweep's run is its request; the run erased is the key, so a retried activity finds its record again.
  const record = await deps.audit.begin({
    action: 'job.expire',
    tenantId: job.tenantId,
    jobId: job.jobId,
    actor: ACTOR,
    requestId: Context.current().info.workflowExecution?.workflowId ?? RETENTION_SWEEP_WORKFLOW_ID,
    idempotencyKey: `retention:${description.runId}`,
    details: { closedAt: closedAt.toISOString(), closedBefore: job.closedBefore },
  });
  const erasure = await eraseClosedJob(deps, {
    tenantId: job.tenantId,
    jobId: job.jobId,
    runId: description.runId,
    definition: type === undefined ? undefined : jobTypeNamed(type),
    memo: (description.memo ?? {}) as ContentMemo,
    reason: REASON,
  }).catch(async (error: unknown) => {
    await record.finish('failed').catch(() => undefined);
    throw error;
  });
  await record.finish('done').catch((error: unknown) => deps.log.warn({ err: error, jobId: job.jobId }, 'audit outcome not written'));
  deps.log.info({ tenantId: job.tenantId, jobId: job.jobId, closedAt: closedAt.toISOString(), ...erasure.erased, sharedObjectsKept: erasure.kept.sharedObjects }, 'retention sweep erased a job');
  return {
    jobs: 1,
    objects: erasure.erased.objects,
    executions: erasure.erased.executions,
    sharedObjectsKept: erasure.kept.sharedObjects,
    jobsKept: 0,
  };
}
