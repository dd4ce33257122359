import { type WorkflowExecutionDescription, WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Job } from '../../common/api-contract/job';
import { compact } from '../../common/compact';
import { parseJobId } from '../../common/job-id';
import { errorWithCurrentStep, stepNamed } from '../../common/job-steps';
import { isTerminal, type JobError, type JobProgress, type JobStart, type JobState, type JobStatus, type JobType } from '../../common/job';
import { statusQuery } from '../../common/messages';
import { JobStatusKey, JobStepKey, JobTypeKey, TenantIdKey } from '../../common/search-attributes';
import type { Priority } from '../../common/task-queues';
import { apiErrors } from '../api-error';
import { currentAttemptOf, decodePendingFailures } from '../current-attempt';
import { erasureMarks } from '../../lib/erasure/erasure-marks';
import { jobLinks } from './job-links';
import { type JobBase, toJobView } from './job-view';
import type { JobsDeps } from './jobs-deps';

/** What the API writes into a job's memo when it starts it, and the workflow adds to. */
export interface JobMemo {
  inputSha256?: string;
  fileName?: string;
  /** A JSON job's name (common/job-types/job-name.ts). */
  name?: string;
  priority?: Priority;
  submittedAt?: string;
  /** The schedule whose action started this run; a schedule's memo is fixed, so its runs carry no submittedAt. */
  scheduleId?: string;
  /** Written by the workflow when a step fails for good (workflows/job-tracker.ts). */
  error?: JobError;
  /** Written by a fan-out as it advances (JobTracker.publishProgress). */
  progress?: JobProgress;
}

/** How long GET /jobs/:id waits for a worker to answer the status query before answering from the server alone. */
const QUERY_DEADLINE_MS = 1_500;

/** Reading one job: from the server (description, memo, search attributes) and, when a worker answers, the workflow. */
export function createJobReader(deps: Pick<JobsDeps, 'client' | 'config' | 'store'>) {
  const { client, config } = deps;
  const marks = erasureMarks(deps.store);

  async function describe(jobId: string): Promise<WorkflowExecutionDescription | undefined> {
    try {
      const description = await client.workflow.getHandle(jobId).describe();
      await decodePendingFailures(description, client.options.loadedDataConverter);
      return description;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return undefined;
      throw error;
    }
  }

  function memoOf(description: WorkflowExecutionDescription): JobMemo {
    return (description.memo ?? {}) as JobMemo;
  }

  function baseOf(description: WorkflowExecutionDescription): JobBase {
    const memo = memoOf(description);
    const attribute = (key: typeof JobStatusKey) => description.typedSearchAttributes.get(key);
    const running = description.status.name === 'RUNNING';
    const status = (attribute(JobStatusKey) as JobStatus | undefined) ?? 'queued';
    return compact({
      jobId: description.workflowId,
      // Jobs started before the registry all were invoices; their JobType was always written, this is a fallback.
      type: (attribute(JobTypeKey) as JobType | undefined) ?? 'invoice',
      // A run the server ended (terminated, timed out) never got to write its own final status.
      status: running || isTerminal(status) ? status : 'failed',
      step: stepNamed(attribute(JobStepKey)),
      priority: memo.priority,
      fileName: memo.fileName,
      name: memo.name,
      scheduleId: memo.scheduleId,
      submittedAt: memo.submittedAt ?? description.startTime.toISOString(),
      closedAt: description.closeTime?.toISOString(),
      error: errorWithCurrentStep(memo.error),
      currentAttempt: running ? currentAttemptOf(description) : undefined,
      progress: memo.progress,
    });
  }

  /** The detail only the workflow knows: its result when closed, else the status query if a worker answers. */
  async function stateOf(description: WorkflowExecutionDescription): Promise<JobState | undefined> {
    const handle = client.workflow.getHandle<(input: JobStart) => Promise<JobState>>(description.workflowId);
    switch (description.status.name) {
      case 'COMPLETED':
        return handle.result();
      case 'FAILED':
        try {
          await handle.result();
        } catch (error) {
          if (error instanceof WorkflowFailedError && error.cause instanceof ApplicationFailure) {
            return error.cause.details?.[0] as JobState | undefined;
          }
        }
        return undefined;
      case 'RUNNING':
        try {
          return await client.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(statusQuery));
        } catch {
          return undefined;
        }
      default:
        return undefined;
    }
  }

  async function getOwnedJob(tenantId: string, jobId: string): Promise<WorkflowExecutionDescription> {
    const parsed = parseJobId(jobId);
    // Another tenant's job answers exactly like a missing one, so ids reveal nothing.
    if (!parsed || parsed.tenantId !== tenantId) throw apiErrors.notFound(`job ${jobId}`);
    const description = await describe(jobId);
    if (!description || description.typedSearchAttributes.get(TenantIdKey) !== tenantId || (await marks.hides(tenantId, description))) {
      throw apiErrors.notFound(`job ${jobId}`);
    }
    return description;
  }

  /** The job as a client sees it, with the workflow's detail when a worker answers. */
  async function view(description: WorkflowExecutionDescription): Promise<Job> {
    const state = await stateOf(description);
    return compact(toJobView(baseOf(description), state, jobLinks(config, description.workflowId)));
  }

  /** The server's view only: a submission answers without waiting for a worker to take the first task. */
  function summary(description: WorkflowExecutionDescription): Job {
    return compact(toJobView(baseOf(description), undefined, jobLinks(config, description.workflowId)));
  }

  /**
   * A job this API just started, from what it wrote into the start: what a description read back would say of a
   * job no worker has touched yet, without the round trip.
   */
  function started(job: { jobId: string; type: JobType; priority: Priority; memo: JobMemo }): Job {
    const { memo } = job;
    const base: JobBase = compact({
      jobId: job.jobId,
      type: job.type,
      status: 'queued' as const,
      priority: job.priority,
      fileName: memo.fileName,
      name: memo.name,
      submittedAt: memo.submittedAt,
    });
    return compact(toJobView(base, undefined, jobLinks(config, job.jobId)));
  }

  return { describe, memoOf, baseOf, stateOf, getOwnedJob, view, summary, started };
}

export type JobReader = ReturnType<typeof createJobReader>;
