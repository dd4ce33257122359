import type { BudgetWait, DeadLetter, JobError, JobProgress, ReviewDecision, Usage } from './api-contract/job-parts';
import type { ScoreBand } from './job-types/job-type';
import { JOB_TYPE_DEFINITIONS, JOB_TYPES, type JobType, type RegisteredResult, type RegisteredStep } from './job-types/registry';
import type { Priority } from './task-queues';
import type { UploadContentType } from './upload-content-type';

// The parts the API shows as they are are defined once, with their JSON schema, in the API contract.
export type { BudgetWait, DeadLetter, JobError, JobProgress, ReviewDecision, Usage };

// The types are the registry's (common/job-types/registry.ts); re-exported where the vocabulary lives.
export { JOB_TYPES, type JobType };

/** The status vocabulary of the API's `status` field and the JobStatus search attribute. */
export const JOB_STATUSES = [
  'queued',
  'processing',
  'awaiting_review',
  'posted',
  'rejected',
  'review_expired',
  'failed',
  'dead_letter',
  'completed',
  'cancelled',
  'budget_wait',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** `completed`: a type without a ledger finished with its result; `cancelled`: a client cancelled it (POST /jobs/:id/cancel). */
export const TERMINAL_STATUSES: readonly JobStatus[] = ['posted', 'rejected', 'review_expired', 'failed', 'completed', 'cancelled'];
export type TerminalStatus = Extract<JobStatus, 'posted' | 'rejected' | 'review_expired' | 'failed' | 'completed' | 'cancelled'>;

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/** Every registered type's activity steps, then the two steps that are no activity. */
export type JobStep = RegisteredStep | 'validate' | 'review';
export const JOB_STEPS: readonly JobStep[] = [...new Set<JobStep>([...JOB_TYPE_DEFINITIONS.flatMap((definition) => definition.steps), 'validate', 'review'])];

/** Where the uploaded document lives; workflows carry this reference, never the bytes. */
export interface DocumentRef {
  bucket: string;
  key: string;
  sha256: string;
  contentType: UploadContentType;
  sizeBytes: number;
  fileName: string;
}

/** What every job's workflow starts with, whatever its type: the API builds it from the request and the settings. */
export interface JobStart {
  jobId: string;
  tenantId: string;
  priority: Priority;
  /** How long a job waits for a reviewer before it ends as review_expired. */
  reviewTimeoutMs: number;
  /** How long a job whose step failed for good waits for an operator's retry or abandon. */
  deadLetterTimeoutMs: number;
  /** Where signed webhooks go (the job's own, or the tenant's default); none when absent. */
  callbackUrl?: string;
  submittedAt: string;
  /** When the job's result is due (ISO 8601); the batch lane gives way to the live path when it is at risk. */
  deadline?: string;
  /** Present when the job's bulk model calls may take the batch lane (BATCH_LANE, priority `bulk`). */
  batchLane?: BatchLaneAllowance;
  /** Present when the deployment pushes (PUSH_ENABLED): the job's notable events go to its Web Push subscriptions. */
  push?: true;
}

/** How long a job may wait for the batch lane (BATCH_DEADLINE_MARGIN, BATCH_MAX_WAIT). */
export interface BatchLaneAllowance {
  deadlineMarginMs: number;
  maxWaitMs: number;
}

/** A job whose input is a JSON body (the type's input schema), with its review band when the type has one. */
export interface JsonJobInput<Input> extends JobStart {
  input: Input;
  scoreBand?: ScoreBand;
}

/** One change the client can see: SSE streams these (id = seq) and webhooks carry the notable ones. */
export interface JobEvent {
  seq: number;
  status: JobStatus;
  step?: JobStep;
  at: string;
  error?: JobError;
}

/** What the `status` query returns: the job as the workflow sees it. */
export interface JobState {
  jobId: string;
  tenantId: string;
  status: JobStatus;
  step?: JobStep;
  attempts: Partial<Record<JobStep, number>>;
  /** Model output that failed the schema, kept for the reviewer (truncated). */
  rawModelOutput?: string;
  validationErrors?: string[];
  /** Why a person reviews when no field or schema says it (a call heard with low confidence), for the reviewer page. */
  reviewReason?: string;
  reviewDeadline?: string;
  review?: ReviewDecision;
  /** JSON-input types: the input, for the reviewer page and GET /jobs/:id. */
  input?: unknown;
  /** What the model proposed while a person decides (the type's `proposal` schema). */
  proposal?: unknown;
  /** The type's result once it finished well. */
  result?: RegisteredResult;
  error?: JobError;
  deadLetter?: DeadLetter;
  /** While the job waits in `budget_wait` for its tenant's spend cap (workflows/spend-cap-wait.ts). */
  budgetWait?: BudgetWait;
  usage: Usage;
  /** Types that fan out (document): how far the map has got; its seq shares the events' numbering. */
  progress?: JobProgress;
  events: JobEvent[];
  updatedAt: string;
}

