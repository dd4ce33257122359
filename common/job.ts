import type { DeadLetter, JobError, ReviewDecision, Usage } from './api-contract/job-parts';
import type { Invoice, InvoiceExtraction } from './invoice';
import type { Priority } from './task-queues';

// The parts the API shows as they are are defined once, with their JSON schema, in the API contract.
export type { DeadLetter, JobError, ReviewDecision, Usage };

export const JOB_TYPES = ['invoice'] as const;
export type JobType = (typeof JOB_TYPES)[number];

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
  // A job type with nothing to post (a document read for search) ends here.
  'completed',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const TERMINAL_STATUSES: readonly JobStatus[] = ['posted', 'rejected', 'review_expired', 'failed', 'completed'];

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export const JOB_STEPS = [
  'extractText',
  'classifyDocument',
  'extractInvoiceFields',
  'validate',
  'review',
  'postInvoiceToLedger',
  // The document type's steps (workflows/document/).
  'readDocumentPages',
  'processDocumentChunk',
  'writeDocumentChunks',
  'summarizeDocument',
] as const;
export type JobStep = (typeof JOB_STEPS)[number];

/** Where the uploaded document lives; workflows carry this reference, never the bytes. */
export interface DocumentRef {
  bucket: string;
  key: string;
  sha256: string;
  contentType: 'application/pdf' | 'text/plain';
  sizeBytes: number;
  fileName: string;
}

export interface InvoiceJobInput {
  jobId: string;
  tenantId: string;
  priority: Priority;
  document: DocumentRef;
  /** Below this overall confidence a person reviews the fields (0..1). */
  confidenceThreshold: number;
  /** How long a job waits for a reviewer before it ends as review_expired. */
  reviewTimeoutMs: number;
  /** Schema-invalid model output is re-asked this many times in total before it goes to review. */
  maxExtractionTries: number;
  /** How long a job whose step failed for good waits for an operator's retry or abandon. */
  deadLetterTimeoutMs: number;
  /** Where signed webhooks go (the job's own, or the tenant's default); none when absent. */
  callbackUrl?: string;
  submittedAt: string;
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
  textKey?: string;
  documentType?: string;
  extraction?: InvoiceExtraction;
  /** Model output that failed the schema, kept for the reviewer (truncated). */
  rawModelOutput?: string;
  validationErrors?: string[];
  confidence?: number;
  fields?: Invoice;
  reviewDeadline?: string;
  review?: ReviewDecision;
  ledgerEntryId?: string;
  error?: JobError;
  deadLetter?: DeadLetter;
  usage: Usage;
  events: JobEvent[];
  updatedAt: string;
}

