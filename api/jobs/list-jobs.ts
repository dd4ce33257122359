import type { JobList, JobSummary } from '../../common/api-contract/job-list';
import { compact } from '../../common/compact';
import type { JobStatus, JobType } from '../../common/job';
import { JOB_TYPES } from '../../common/job-types/registry';
import { stepNamed } from '../../common/job-steps';
import { apiErrors } from '../api-error';
import { jobLinks } from './job-links';
import type { JobsDeps } from './jobs-deps';
import { pageTokensFor } from './page-tokens';

export interface ListJobsFilter {
  type?: JobType;
  status?: JobStatus;
  pageSize: number;
  pageToken?: string;
}

/** `GET /jobs`: a tenant's jobs, newest first, from Temporal visibility (so it answers with no worker). */
export function createListJobs(deps: Pick<JobsDeps, 'client' | 'config'>) {
  const { client, config } = deps;
  const decode = (payload: unknown): unknown =>
    payload ? client.options.loadedDataConverter.payloadConverter.fromPayload(payload as never) : undefined;

  return async function listJobs(tenantId: string, filter: ListJobsFilter): Promise<JobList> {
    // Jobs only (webhook deliveries share the namespace and the tenant); the types come from the registry.
    const clauses = [`TenantId = '${tenantId}'`, `JobType IN (${JOB_TYPES.map((type) => `'${type}'`).join(', ')})`];
    if (filter.type) clauses.push(`JobType = '${filter.type}'`);
    if (filter.status) clauses.push(`JobStatus = '${filter.status}'`);
    const query = clauses.join(' AND ');
    const pageTokens = pageTokensFor(config.api.pageTokenSecret, query);
    const nextPageToken = filter.pageToken === undefined ? undefined : pageTokens.read(filter.pageToken);
    if (nextPageToken === null) {
      throw apiErrors.invalidRequest('pageToken is not one this list gave out; start again without it', { field: 'pageToken' });
    }
    const response = await client.workflowService.listWorkflowExecutions({
      namespace: config.temporal.namespace,
      query,
      pageSize: filter.pageSize,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    const jobs = (response.executions ?? []).map((execution): JobSummary => {
      const fields = execution.searchAttributes?.indexedFields ?? {};
      const memoFields = execution.memo?.fields ?? {};
      const jobId = execution.execution?.workflowId ?? '';
      return compact({
        jobId,
        type: decode(fields.JobType) as JobType | undefined,
        status: (decode(fields.JobStatus) as JobStatus | undefined) ?? 'queued',
        step: stepNamed(decode(fields.JobStep)),
        priority: decode(memoFields.priority) as JobSummary['priority'],
        fileName: decode(memoFields.fileName) as string | undefined,
        submittedAt: decode(memoFields.submittedAt) as string | undefined,
        reviewDeadline: (decode(fields.ReviewDeadline) as string | undefined) ?? undefined,
        links: jobLinks(config, jobId),
      });
    });
    const next = response.nextPageToken?.length ? pageTokens.write(response.nextPageToken) : undefined;
    return compact({ jobs, nextPageToken: next });
  };
}
