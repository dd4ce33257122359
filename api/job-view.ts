import type { InvoiceExtraction, Invoice } from '../common/invoice';
import type { JobError, JobState, JobStatus, JobStep, Usage } from '../common/job';
import type { Priority } from '../common/task-queues';

/** What the server alone knows of a job (search attributes, memo, close time): enough to answer with no worker. */
export interface JobBase {
  jobId: string;
  type: string;
  status: JobStatus;
  step?: JobStep;
  priority?: Priority;
  fileName?: string;
  submittedAt?: string;
  closedAt?: string;
  /** A failed or parked job's error, from its memo: known even while no worker answers the status query. */
  error?: JobError;
  /** The step in flight, from the server's pending activity: its attempt, the last failure, the next try. */
  currentAttempt?: CurrentAttempt;
}

export interface CurrentAttempt {
  step: JobStep;
  attempt: number;
  lastFailure?: { type?: string; message: string };
  nextAttemptAt?: string;
}

/** What GET /jobs/:id answers: the job as a client sees it (see api/openapi). */
export interface JobView extends JobBase {
  updatedAt?: string;
  attempts?: Partial<Record<JobStep, number>>;
  documentType?: string;
  confidence?: number;
  extraction?: InvoiceExtraction;
  validationErrors?: string[];
  rawModelOutput?: string;
  reviewDeadline?: string;
  review?: JobState['review'];
  result?: { fields: Invoice; ledgerEntryId?: string };
  deadLetter?: JobState['deadLetter'];
  usage?: Usage;
  /** False when no worker answered the status query; the fields above then come from the server alone. */
  detailed: boolean;
  links: Record<string, string>;
}

export function toJobView(base: JobBase, state: JobState | undefined, links: Record<string, string>): JobView {
  if (!state) return { ...base, detailed: false, links };
  return {
    ...base,
    status: state.status,
    step: state.step,
    updatedAt: state.updatedAt,
    attempts: state.attempts,
    documentType: state.documentType,
    confidence: state.confidence,
    extraction: state.extraction,
    validationErrors: state.validationErrors?.length ? state.validationErrors : undefined,
    rawModelOutput: state.rawModelOutput,
    reviewDeadline: state.reviewDeadline,
    review: state.review,
    result: state.fields && state.status === 'posted' ? { fields: state.fields, ledgerEntryId: state.ledgerEntryId } : undefined,
    error: state.error,
    deadLetter: state.status === 'dead_letter' ? state.deadLetter : undefined,
    usage: state.usage,
    detailed: true,
    links,
  };
}
