import type { SearchAttributePair } from '@temporalio/common';
import type { DocumentRef, JobStart } from '../../common/job';
import type { JobTypeDefinition } from '../../common/job-types/job-type';
import { JobStatusKey, JobTypeKey, NeedsReviewKey, PriorityKey, TenantIdKey } from '../../common/search-attributes';
import { type Priority, taskQueueFor } from '../../common/task-queues';
import { pushTerms } from '../jobs/push-terms';
import { batchLaneTerms } from '../jobs/batch-lane-terms';
import { typeSettings } from '../jobs/type-settings';
import type { JobsDeps } from '../jobs/jobs-deps';
import { tenantFairness } from '../jobs/tenant-fairness';

export interface ScheduledRunInput {
  tenantId: string;
  priority: Priority;
  document: DocumentRef;
  callbackUrl?: string;
  scheduleId: string;
}

/**
 * What a schedule's action starts: the type's workflow with the same input, memo and search attributes as a job
 * `POST /jobs` starts, so a scheduled run is an ordinary job. What only exists per run is left out: the job id
 * (Temporal makes it from the action's id and the scheduled time) and the submission time (the run's start time).
 */
export function scheduledRunStart(config: JobsDeps['config'], jobType: JobTypeDefinition, input: ScheduledRunInput) {
  const args: Omit<JobStart, 'jobId' | 'submittedAt'> & { document: DocumentRef; scheduleId: string } = {
    tenantId: input.tenantId,
    priority: input.priority,
    reviewTimeoutMs: config.jobs.reviewTimeoutMs,
    deadLetterTimeoutMs: config.jobs.deadLetterTimeoutMs,
    ...typeSettings(jobType, config.jobs),
    ...(input.callbackUrl ? { callbackUrl: input.callbackUrl } : {}),
    // Fixed when the schedule is made, like the rest of the action: a bulk digest's runs may take the batch lane.
    ...batchLaneTerms(config, input.priority),
    ...pushTerms(config),
    document: input.document,
    scheduleId: input.scheduleId,
  };
  const typedSearchAttributes: SearchAttributePair[] = [
    { key: TenantIdKey, value: input.tenantId },
    { key: JobTypeKey, value: jobType.name },
    { key: JobStatusKey, value: 'queued' },
    { key: PriorityKey, value: input.priority },
    { key: NeedsReviewKey, value: false },
  ];
  return {
    workflowType: jobType.workflowType,
    taskQueue: taskQueueFor(input.priority, config.temporal.taskQueuePrefix),
    ...tenantFairness(config, input.tenantId),
    args: [args],
    memo: {
      inputSha256: input.document.sha256,
      fileName: input.document.fileName,
      priority: input.priority,
      tenantId: input.tenantId,
      sizeBytes: input.document.sizeBytes,
      scheduleId: input.scheduleId,
    },
    typedSearchAttributes,
    staticSummary: `${jobType.name} of ${input.document.fileName} · ${input.tenantId} · ${input.priority} · schedule ${input.scheduleId}`,
  };
}
