import type { DocumentRef, JobStart, JobState } from '../../job';

/**
 * The digest workflow's input. A schedule's action is fixed when the schedule is made, and Temporal makes each
 * run's id by appending the scheduled time, so a scheduled run has no jobId or submittedAt of its own: the workflow
 * takes its own id and start time (workflowInfo) instead.
 */
export type TicketsDigestJobInput = Omit<JobStart, 'jobId' | 'submittedAt'> & {
  jobId?: string;
  submittedAt?: string;
  /** The JSONL file of tickets (every file-input type's workflow gets its upload as `document`). */
  document: DocumentRef;
  /** The schedule that started the run, when one did. */
  scheduleId?: string;
};

/** What a digest's `status` query shows: the common job state; the digest itself is its `result`. */
export type TicketsDigestJobState = JobState;
