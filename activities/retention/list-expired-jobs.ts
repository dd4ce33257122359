import { JOB_TYPES } from '../../common/job-types/registry';
import type { ExpiredJob, ExpiredJobsPage, SweepCursor } from '../../common/retention';
import { retentionMsOf } from '../../lib/config/retention';
import type { RetentionDeps } from './retention-deps';

/**
 * One page of closed jobs past their tenant's retention, tenant by tenant (ids in order, so a cursor names where to
 * go on). Running jobs are never listed: their inputs are still read. A tenant with nothing due is passed over
 * within the same call, so a page is empty only at the end.
 */
export function createListExpiredJobs(deps: RetentionDeps) {
  const now = deps.now ?? (() => new Date());
  return async function listExpiredJobs(input: { cursor?: SweepCursor; limit: number }): Promise<ExpiredJobsPage> {
    const tenantIds = deps.tenants.map((tenant) => tenant.id).sort();
    // A tenant removed since the cursor was written: go on with the next one in order.
    let index = input.cursor ? tenantIds.findIndex((id) => id >= (input.cursor as SweepCursor).tenantId) : 0;
    let cursor = input.cursor;
    while (index >= 0 && index < tenantIds.length) {
      const tenantId = tenantIds[index] as string;
      const resumes = cursor?.tenantId === tenantId;
      const closedBefore = (resumes && cursor?.closedBefore) || new Date(now().getTime() - retentionMsOf(deps.retention, tenantId)).toISOString();
      const pageToken = resumes ? cursor?.pageToken : undefined;
      const response = await deps.client.workflowService.listWorkflowExecutions({
        namespace: deps.client.options.namespace,
        query: expiredJobsQuery(tenantId, closedBefore),
        pageSize: input.limit,
        ...(pageToken ? { nextPageToken: Buffer.from(pageToken, 'base64') } : {}),
      });
      const jobIds = new Set((response.executions ?? []).map((execution) => execution.execution?.workflowId).filter((id): id is string => Boolean(id)));
      // A reset job lists each closed run; it is erased once, as a whole.
      const jobs: ExpiredJob[] = [...jobIds].map((jobId) => ({ tenantId, jobId, closedBefore }));
      const next: SweepCursor | undefined = response.nextPageToken?.length
        ? { tenantId, closedBefore, pageToken: Buffer.from(response.nextPageToken).toString('base64') }
        : index + 1 < tenantIds.length
          ? { tenantId: tenantIds[index + 1] as string }
          : undefined;
      if (jobs.length > 0 || !next) return next ? { jobs, next } : { jobs };
      cursor = next;
      index = tenantIds.indexOf(next.tenantId);
    }
    return { jobs: [] };
  };
}

/** Jobs only (webhook deliveries and chunk groups go with their job), closed before the bound; ids and times are ours. */
export function expiredJobsQuery(tenantId: string, closedBefore: string): string {
  const types = JOB_TYPES.map((type) => `'${type}'`).join(', ');
  return `TenantId = '${tenantId}' AND JobType IN (${types}) AND ExecutionStatus != 'Running' AND CloseTime < '${closedBefore}'`;
}
