import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  type Client,
  type WorkflowExecutionDescription,
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { canonicalJson } from '../common/canonical-json';
import { compact } from '../common/compact';
import { jobIdFor, parseJobId } from '../common/job-id';
import { errorWithCurrentStep, stepNamed } from '../common/job-steps';
import {
  type InvoiceJobInput,
  isTerminal,
  type JobError,
  type JobEvent,
  type JobState,
  type JobStatus,
  type JobStep,
} from '../common/job';
import { statusQuery, submitReviewUpdate, type SubmitReviewInput } from '../common/messages';
import {
  JobStatusKey,
  JobStepKey,
  JobTypeKey,
  NeedsReviewKey,
  PriorityKey,
  ReviewDeadlineKey,
  TenantIdKey,
} from '../common/search-attributes';
import { type Priority, taskQueueFor } from '../common/task-queues';
import { validateInvoice } from '../common/validation';
import type { Config } from '../lib/config';
import { objectKeys, type ObjectStore, type StoredObject } from '../lib/object-store';
import type { invoiceWorkflow } from '../workflows';
import { apiErrors } from './api-error';
import { currentAttemptOf } from './current-attempt';
import { type JobBase, type JobView, toJobView } from './job-view';
import type { ReceivedUpload } from './multipart-upload';

export interface JobsServiceDeps {
  client: Client;
  store: ObjectStore;
  config: Pick<Config, 'temporal' | 'jobs' | 'api'>;
}

export interface SubmitJobInput {
  tenantId: string;
  idempotencyKey: string;
  priority: Priority;
  upload: ReceivedUpload;
  callbackUrl?: string;
}

export interface JobEvents {
  status: JobStatus;
  step?: JobStep;
  events?: JobEvent[];
}

export interface SubmitJobResult {
  job: JobView;
  /** True when the key named an existing job with the same file: nothing new was started. */
  replayed: boolean;
}

interface JobMemo {
  inputSha256?: string;
  fileName?: string;
  priority?: Priority;
  submittedAt?: string;
  /** Written by the workflow when a step fails for good (workflows/job-tracker.ts). */
  error?: JobError;
}

/** How long GET /jobs/:id waits for a worker to answer the status query before answering from the server alone. */
const QUERY_DEADLINE_MS = 1_500;
/**
 * How long a review decision waits for a worker to take it. Without a bound the request hangs for as long as no
 * worker runs (a deploy, an outage), and the reviewer's page with it.
 */
const REVIEW_DEADLINE_MS = 15_000;

/**
 * Temporal's page tokens travel with a checksum. The server answers a token it cannot read with a generic error
 * that its client retries for about 20 seconds; a mangled or made-up token is a 400 at once instead.
 */
const pageTokens = {
  write(token: Uint8Array): string {
    const bytes = Buffer.from(token);
    return `${bytes.toString('base64url')}.${pageTokenChecksum(bytes)}`;
  },
  /** The token's bytes, or null when it is not one `write` made. */
  read(text: string): Buffer | null {
    const [body, checksum, ...rest] = text.split('.');
    if (!body || rest.length > 0) return null;
    const bytes = Buffer.from(body, 'base64url');
    return checksum === pageTokenChecksum(bytes) ? bytes : null;
  },
};

function pageTokenChecksum(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 12);
}

export function createJobsService(deps: JobsServiceDeps) {
  const { client, store, config } = deps;
  const links = (jobId: string): Record<string, string> => {
    const base = `${config.api.publicUrl}/jobs/${encodeURIComponent(jobId)}`;
    return {
      self: base,
      events: `${base}/events`,
      review: `${base}/review`,
      document: `${base}/document`,
      temporal: `${config.temporal.webUiUrl}/namespaces/${encodeURIComponent(config.temporal.namespace)}/workflows/${encodeURIComponent(jobId)}`,
    };
  };

  async function describe(jobId: string): Promise<WorkflowExecutionDescription | undefined> {
    try {
      return await client.workflow.getHandle(jobId).describe();
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
      type: (attribute(JobTypeKey) as string | undefined) ?? 'invoice',
      // A run the server ended (terminated, timed out) never got to write its own final status.
      status: running || isTerminal(status) ? status : 'failed',
      step: stepNamed(attribute(JobStepKey)),
      priority: memo.priority,
      fileName: memo.fileName,
      submittedAt: memo.submittedAt,
      closedAt: description.closeTime?.toISOString(),
      error: errorWithCurrentStep(memo.error),
      currentAttempt: running ? currentAttemptOf(description) : undefined,
    });
  }

  /** The detail only the workflow knows: its result when closed, else the status query if a worker answers. */
  async function stateOf(description: WorkflowExecutionDescription): Promise<JobState | undefined> {
    const handle = client.workflow.getHandle<typeof invoiceWorkflow>(description.workflowId);
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
    if (!description || description.typedSearchAttributes.get(TenantIdKey) !== tenantId) {
      throw apiErrors.notFound(`job ${jobId}`);
    }
    return description;
  }

  async function view(description: WorkflowExecutionDescription): Promise<JobView> {
    const state = await stateOf(description);
    return compact(toJobView(baseOf(description), state, links(description.workflowId)));
  }

  /** The server's view only: a submission answers without waiting for a worker to take the first task. */
  function summary(description: WorkflowExecutionDescription): JobView {
    return compact(toJobView(baseOf(description), undefined, links(description.workflowId)));
  }

  return {
    async submit(input: SubmitJobInput): Promise<SubmitJobResult> {
      const jobId = jobIdFor('invoice', input.tenantId, input.idempotencyKey);
      const existing = await describe(jobId);
      if (existing) return replayOrConflict(existing, input.upload.sha256);

      const key = objectKeys.input(input.tenantId, input.upload.sha256);
      await store.put(key, createReadStream(input.upload.path), {
        contentType: input.upload.contentType,
        contentLength: input.upload.sizeBytes,
      });
      const submittedAt = new Date().toISOString();
      const workflowInput: InvoiceJobInput = {
        jobId,
        tenantId: input.tenantId,
        priority: input.priority,
        document: {
          bucket: store.bucket,
          key,
          sha256: input.upload.sha256,
          contentType: input.upload.contentType,
          sizeBytes: input.upload.sizeBytes,
          fileName: input.upload.fileName,
        },
        confidenceThreshold: config.jobs.confidenceThreshold,
        reviewTimeoutMs: config.jobs.reviewTimeoutMs,
        maxExtractionTries: config.jobs.maxExtractionTries,
        deadLetterTimeoutMs: config.jobs.deadLetterTimeoutMs,
        ...(input.callbackUrl ? { callbackUrl: input.callbackUrl } : {}),
        submittedAt,
      };
      const memo: Record<string, unknown> = {
        inputSha256: input.upload.sha256,
        fileName: input.upload.fileName,
        priority: input.priority,
        submittedAt,
        tenantId: input.tenantId,
        sizeBytes: input.upload.sizeBytes,
      };
      try {
        await client.workflow.start<typeof invoiceWorkflow>('invoiceWorkflow', {
          workflowId: jobId,
          taskQueue: taskQueueFor(input.priority, config.temporal.taskQueuePrefix),
          args: [workflowInput],
          // A racing duplicate joins the running job; a finished one is never started again.
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          memo,
          typedSearchAttributes: [
            { key: TenantIdKey, value: input.tenantId },
            { key: JobTypeKey, value: 'invoice' },
            { key: JobStatusKey, value: 'queued' },
            { key: PriorityKey, value: input.priority },
            { key: NeedsReviewKey, value: false },
          ],
          staticSummary: `${input.upload.fileName} · ${input.tenantId} · ${input.priority}`,
        });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
      const description = await describe(jobId);
      if (!description) throw apiErrors.temporalUnavailable();
      if (memoOf(description).inputSha256 !== input.upload.sha256) throw apiErrors.idempotencyKeyReused(jobId);
      // Under a race both callers may have started "the" job; only one run exists, and both report it.
      return { job: summary(description), replayed: memoOf(description).submittedAt !== submittedAt };
    },

    async get(tenantId: string, jobId: string): Promise<JobView> {
      return view(await getOwnedJob(tenantId, jobId));
    },

    /** The job's events so far (SSE). Without a worker only the server-side status is known: `events` is absent. */
    async events(tenantId: string, jobId: string): Promise<JobEvents> {
      const description = await getOwnedJob(tenantId, jobId);
      const state = await stateOf(description);
      if (state) return compact({ status: state.status, step: state.step, events: state.events });
      const base = baseOf(description);
      return compact({ status: base.status, step: base.step });
    },

    /** The uploaded document, streamed from the object store (the reviewer page shows it beside the fields). */
    async openDocument(tenantId: string, jobId: string): Promise<StoredObject & { fileName: string }> {
      const memo = memoOf(await getOwnedJob(tenantId, jobId));
      if (!memo.inputSha256) throw apiErrors.notFound(`the document of job ${jobId}`);
      const stored = await store.open(objectKeys.input(tenantId, memo.inputSha256));
      return { ...stored, fileName: memo.fileName ?? 'document' };
    },

    async list(tenantId: string, filter: { status?: JobStatus; pageSize: number; pageToken?: string }) {
      const clauses = [`TenantId = '${tenantId}'`, `JobType = 'invoice'`];
      if (filter.status) clauses.push(`JobStatus = '${filter.status}'`);
      const nextPageToken = filter.pageToken === undefined ? undefined : pageTokens.read(filter.pageToken);
      if (nextPageToken === null) {
        throw apiErrors.invalidRequest('pageToken is not one this list gave out; start again without it', { field: 'pageToken' });
      }
      const response = await client.workflowService.listWorkflowExecutions({
        namespace: config.temporal.namespace,
        query: clauses.join(' AND '),
        pageSize: filter.pageSize,
        ...(nextPageToken ? { nextPageToken } : {}),
      });
      const jobs = (response.executions ?? []).map((execution) => {
        const fields = execution.searchAttributes?.indexedFields ?? {};
        const memoFields = execution.memo?.fields ?? {};
        const decode = (payload: unknown): unknown =>
          payload ? client.options.loadedDataConverter.payloadConverter.fromPayload(payload as never) : undefined;
        const jobId = execution.execution?.workflowId ?? '';
        return compact({
          jobId,
          status: (decode(fields.JobStatus) as JobStatus | undefined) ?? 'queued',
          step: stepNamed(decode(fields.JobStep)),
          priority: decode(memoFields.priority) as string | undefined,
          fileName: decode(memoFields.fileName) as string | undefined,
          submittedAt: decode(memoFields.submittedAt) as string | undefined,
          reviewDeadline: (decode(fields.ReviewDeadline) as string | undefined) ?? undefined,
          links: links(jobId),
        });
      });
      const next = response.nextPageToken?.length ? pageTokens.write(response.nextPageToken) : undefined;
      return compact({ jobs, nextPageToken: next });
    },

    async review(tenantId: string, jobId: string, review: SubmitReviewInput, requestId?: string): Promise<JobView> {
      const description = await getOwnedJob(tenantId, jobId);
      const status = baseOf(description).status;
      if (description.status.name !== 'RUNNING') {
        // A resend of the decision that closed the job (its first answer was lost, a 503) gets the job, not a 409.
        const state = await stateOf(description);
        if (state?.review && isSameDecision(state.review, review)) return view(description);
        throw apiErrors.notAwaitingReview(status);
      }
      // A job that never opened review cannot hold a decision to resend: 409 at once, even with no worker.
      if (status !== 'awaiting_review' && !description.typedSearchAttributes.get(ReviewDeadlineKey)) {
        throw apiErrors.notAwaitingReview(status);
      }
      // Fields are judged only while the job awaits review; once it moved on they no longer matter, and the Update
      // below answers: the same Update id (a resend) gets its first answer, a new decision the validator's 409.
      if (status === 'awaiting_review' && review.decision === 'approve') {
        const checked = validateInvoice(review.fields);
        if (!checked.ok) throw apiErrors.invalidFields(checked.errors);
      }
      const handle = client.workflow.getHandle<typeof invoiceWorkflow>(jobId);
      try {
        await client.withDeadline(Date.now() + REVIEW_DEADLINE_MS, () =>
          handle.executeUpdate(submitReviewUpdate, { args: [review], ...(requestId ? { updateId: requestId } : {}) }),
        );
      } catch (error) {
        if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) throw apiErrors.reviewNotTaken(REVIEW_DEADLINE_MS);
        if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
          if (error.cause.type === 'InvalidReviewFields') {
            const details = error.cause.details?.[0] as { errors?: string[] } | undefined;
            throw apiErrors.invalidFields(details?.errors ?? [error.cause.message]);
          }
          if (error.cause.type === 'NotAwaitingReview') {
            const details = error.cause.details?.[0] as { status?: string } | undefined;
            throw apiErrors.notAwaitingReview(details?.status ?? 'not awaiting review');
          }
        }
        if (error instanceof WorkflowNotFoundError) throw apiErrors.notAwaitingReview('closed');
        throw error;
      }
      return view(await getOwnedJob(tenantId, jobId));
    },
  };

  /** Whether a review request is the decision the job recorded (same outcome, reviewer, reason or fields). */
  function isSameDecision(recorded: NonNullable<JobState['review']>, review: SubmitReviewInput): boolean {
    if (recorded.reviewer !== review.reviewer) return false;
    if (review.decision === 'reject') return recorded.decision === 'rejected' && recorded.reason === review.reason;
    return recorded.decision === 'approved' && canonicalJson(recorded.fields) === canonicalJson(review.fields);
  }

  async function replayOrConflict(existing: WorkflowExecutionDescription, sha256: string): Promise<SubmitJobResult> {
    if (memoOf(existing).inputSha256 !== sha256) throw apiErrors.idempotencyKeyReused(existing.workflowId);
    return { job: summary(existing), replayed: true };
  }
}

export type JobsService = ReturnType<typeof createJobsService>;
