import type { Payload } from '@temporalio/common';
import { decodeMapFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { optionalTsToDate } from '@temporalio/common/lib/time';
import type { JobList, JobSummary } from '../../common/api-contract/job-list';
import { compact } from '../../common/compact';
import type { JobStatus, JobType } from '../../common/job';
import { JOB_TYPES } from '../../common/job-types/registry';
import { stepNamed } from '../../common/job-steps';
import { apiErrors } from '../api-error';
import type { JobMemo } from './job-reader';
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
  // Search attributes never pass the payload codec (the server indexes them); the memo does, so it is decoded with it.
  const decode = (payload: unknown): unknown =>
    payload ? client.options.loadedDataConverter.payloadConverter.fromPayload(payload as never) : undefined;
  const decodeMemo = async (fields: Record<string, Payload> | null | undefined): Promise<JobMemo> =>
    ((await decodeMapFromPayloads(client.options.loadedDataConverter, fields)) ?? {}) as JobMemo;

  return async function listJobs(tenantId: string, filter: ListJobsFilter): Promise<JobList> {
    // Jobs only (webhook deliveries share the namespace and the tenant); the types come from the registry.
    const clauses = [`TenantId = '${tenantId}'`, `JobType IN (${JOB_TYPES.map((type) => `'${type}'`).join(', ')})`];
    if (filter.type) clauses.push(`JobType = '${filter.type}'`);
    if (filter.status) clauses.push(`JobStatus = '${filter.status}'`);
    const query = clauses.join(' AND ');
    const pageTokens = pageTokensFor(config.api.pageTokenSecret, query);
    const nextPageToken = filter.pageToken === undefined ? undefined : pageTokens.read(filter.pageToken);
    if (nextPageToken === null) throw apiErrors.unknownPage();
    const response = await client.workflowService.listWorkflowExecutions({
      namespace: config.temporal.namespace,
      query,
      pageSize: filter.pageSize,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    const jobs = await Promise.all((response.executions ?? []).map(async (execution): Promise<JobSummary> => {
      const fields = execution.searchAttributes?.indexedFields ?? {};
      const memo = await decodeMemo(execution.memo?.fields as Record<string, Payload> | null | undefined);
      const jobId = execution.execution?.workflowId ?? '';
      return compact({
        jobId,
        type: decode(fields.JobType) as JobType | undefined,
        status: (decode(fields.JobStatus) as JobStatus | undefined) ?? 'queued',
        step: stepNamed(decode(fields.JobStep)),
        priority: memo.priority,
        fileName: memo.fileName,
        name: memo.name,
        // A scheduled run's memo is the schedule's, fixed for every run: its start time stands in.
        submittedAt: memo.submittedAt ?? optionalTsToDate(execution.startTime)?.toISOString(),
        reviewDeadline: (decode(fields.ReviewDeadline) as string | undefined) ?? undefined,
        links: jobLinks(config, jobId),
      });
    }));
    const next = response.nextPageToken?.length ? pageTokens.write(response.nextPageToken) : undefined;
    return compact({ jobs, nextPageToken: next });
  };
}
