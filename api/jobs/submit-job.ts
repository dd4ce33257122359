import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type WorkflowExecutionDescription, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Job } from '../../common/api-contract/job';
import { canonicalJson } from '../../common/canonical-json';
import { compact } from '../../common/compact';
import { jobIdFor } from '../../common/job-id';
import type { JobStart, JobType } from '../../common/job';
import { nameFromInput } from '../../common/job-types/job-name';
import type { JobTypeDefinition, ScoreBand } from '../../common/job-types/job-type';
import { JobStatusKey, JobTypeKey, NeedsReviewKey, PriorityKey, TenantIdKey } from '../../common/search-attributes';
import { type Priority, taskQueueFor } from '../../common/task-queues';
import { typeSettings } from './type-settings';
import { pushTerms } from './push-terms';
import { batchLaneTerms } from './batch-lane-terms';
import { objectKeys } from '../../lib/object-store';
import { apiErrors } from '../api-error';
import type { ReceivedUpload } from '../multipart-upload';
import type { JobMemo, JobReader } from './job-reader';
import type { JobsDeps } from './jobs-deps';
import { tenantFairness } from './tenant-fairness';

interface SubmitBase {
  tenantId: string;
  idempotencyKey: string;
  priority: Priority;
  callbackUrl?: string;
  /** When the result is due (ISO 8601). */
  deadline?: string;
}

export interface SubmitJobInput extends SubmitBase {
  upload: ReceivedUpload;
}

export interface SubmitJsonJobInput extends SubmitBase {
  jobType: JobTypeDefinition;
  /** Already checked against the type's input schema by the route. */
  input: unknown;
}

export interface SubmitJobResult {
  job: Job;
  /** True when the key named an existing job with the same input: nothing new was started. */
  replayed: boolean;
}

/** What the API writes into the memo of every job, and the workflow type and its first argument. */
interface JobLaunch {
  jobType: JobTypeDefinition;
  jobId: string;
  /** The input's fingerprint: the same key with another input is a 409. */
  inputSha256: string;
  workflowInput: JobStart;
  memo: JobMemo & { tenantId: string };
  summary: string;
}

/** `POST /jobs`: stores a file (or takes a JSON input) and starts the type's workflow, or finds the job the Idempotency-Key names. */
export function createSubmitJob(deps: JobsDeps, reader: JobReader) {
  const { client, store, config } = deps;

  function replayOrConflict(existing: WorkflowExecutionDescription, sha256: string): SubmitJobResult {
    if (reader.memoOf(existing).inputSha256 !== sha256) throw apiErrors.idempotencyKeyReused(existing.workflowId);
    return { job: reader.summary(existing), replayed: true };
  }

  /** The settings every job starts with, whatever its type; a type reads the ones it needs. */
  function jobStart(jobType: JobTypeDefinition, jobId: string, base: SubmitBase, submittedAt: string): JobStart & { scoreBand?: ScoreBand } {
    const { review } = jobType;
    const scoreBand =
      review.kind === 'score-band'
        ? (config.jobs.reviewBands[jobType.name] ?? { approveBelow: review.approveBelow, declineFrom: review.declineFrom })
        : undefined;
    return {
      jobId,
      tenantId: base.tenantId,
      priority: base.priority,
      reviewTimeoutMs: config.jobs.reviewTimeoutMs,
      deadLetterTimeoutMs: config.jobs.deadLetterTimeoutMs,
      ...typeSettings(jobType, config.jobs),
      ...(base.callbackUrl ? { callbackUrl: base.callbackUrl } : {}),
      ...(scoreBand ? { scoreBand } : {}),
      ...(base.deadline ? { deadline: base.deadline } : {}),
      ...batchLaneTerms(config, base.priority),
      ...pushTerms(config),
      submittedAt,
    };
  }

  /**
   * One round trip for a new job (the common case): the start itself tells whether the key is taken. Only then is
   * the existing job read, to answer a replay or a 409; a racing duplicate lands there too and reports the one run.
   */
  async function launch(plan: JobLaunch, priority: Priority, tenantId: string): Promise<SubmitJobResult> {
    const { jobId, jobType } = plan;
    try {
      await client.workflow.start(jobType.workflowType, {
        workflowId: jobId,
        taskQueue: taskQueueFor(priority, config.temporal.taskQueuePrefix),
        ...tenantFairness(config, tenantId),
        args: [plan.workflowInput],
        // A running or finished job with this id is never started again: the start fails and the job is read instead.
        workflowIdConflictPolicy: 'FAIL',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        memo: { ...plan.memo },
        typedSearchAttributes: [
          { key: TenantIdKey, value: tenantId },
          { key: JobTypeKey, value: jobType.name },
          { key: JobStatusKey, value: 'queued' },
          { key: PriorityKey, value: priority },
          { key: NeedsReviewKey, value: false },
        ],
        staticSummary: plan.summary,
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      const existing = await reader.describe(jobId);
      if (!existing) throw apiErrors.temporalUnavailable();
      return replayOrConflict(existing, plan.inputSha256);
    }
    return { job: reader.started({ jobId, type: jobType.name as JobType, priority, memo: plan.memo }), replayed: false };
  }

  /** A file-input type (multipart upload): the bytes go to the object store, the workflow gets their reference. */
  async function submitFile(jobType: JobTypeDefinition, input: SubmitJobInput): Promise<SubmitJobResult> {
    const jobId = jobIdFor(jobType.name as JobType, input.tenantId, input.idempotencyKey);
    const key = objectKeys.input(input.tenantId, input.upload.sha256);
    // Stored before the start, so no job ever runs without its input. The key is content-derived: a repeated request
    // stores the same object again and then learns from the start that its job exists.
    await store.put(key, createReadStream(input.upload.path), {
      contentType: input.upload.contentType,
      contentLength: input.upload.sizeBytes,
    });

    const submittedAt = new Date().toISOString();
    const workflowInput = {
      ...jobStart(jobType, jobId, input, submittedAt),
      document: {
        bucket: store.bucket,
        key,
        sha256: input.upload.sha256,
        contentType: input.upload.contentType,
        sizeBytes: input.upload.sizeBytes,
        fileName: input.upload.fileName,
      },
    };
    const memo = {
      inputSha256: input.upload.sha256,
      fileName: input.upload.fileName,
      priority: input.priority,
      submittedAt,
      tenantId: input.tenantId,
      sizeBytes: input.upload.sizeBytes,
    };
    const summary = `${input.upload.fileName} · ${input.tenantId} · ${input.priority}`;
    return launch({ jobType, jobId, inputSha256: input.upload.sha256, workflowInput, memo, summary }, input.priority, input.tenantId);
  }

  /** A JSON-input type: the input is small and travels in the workflow's arguments. */
  async function submitJson(input: SubmitJsonJobInput): Promise<SubmitJobResult> {
    const { jobType } = input;
    const jobId = jobIdFor(jobType.name as JobType, input.tenantId, input.idempotencyKey);
    const inputSha256 = createHash('sha256').update(canonicalJson(input.input)).digest('hex');
    const submittedAt = new Date().toISOString();
    const workflowInput = { ...jobStart(jobType, jobId, input, submittedAt), input: input.input };
    // Named in the memo so the job list (visibility only, no input) can show what a person calls the job.
    const name = nameFromInput(jobType.reviewer, input.input);
    const memo = compact({ inputSha256, name, priority: input.priority, submittedAt, tenantId: input.tenantId });
    const summary = `${jobType.name} · ${input.tenantId} · ${input.priority}`;
    return launch({ jobType, jobId, inputSha256, workflowInput, memo, summary }, input.priority, input.tenantId);
  }

  return { submitFile, submitJson };
}
