import type { DocumentRef } from '../../job';
import type { Priority } from '../../task-queues';

/** The job type's name: the `type` of `POST /jobs`, the JobType search attribute, the first part of its job ids. */
export const TICKETS_DIGEST = 'tickets.digest';

/** The workflow's registered name (workflows/tickets-digest/). */
export const TICKETS_DIGEST_WORKFLOW = 'ticketsDigestWorkflow';

/** A digest is a backfill-like batch nobody waits on: it runs on the bulk queue unless the client asks otherwise. */
export const TICKETS_DIGEST_DEFAULT_PRIORITY: Priority = 'bulk';

/** Bounds on the model work of one digest: prompt size per call, and calls in flight at once for one job. */
export const TICKETS_DIGEST_BATCHING = {
  maxBatchCharacters: 48_000,
  maxBatchTickets: 400,
  parallelBatches: 4,
} as const;

export interface TicketsDigestInput {
  /**
   * Absent when a schedule started the run: the schedule's action is fixed, and Temporal makes each run's id by
   * appending the scheduled time, so the workflow reads its own id (workflowInfo) instead.
   */
  jobId?: string;
  tenantId: string;
  priority: Priority;
  tickets: DocumentRef;
  callbackUrl?: string;
  /** How long a job whose step failed for good waits for an operator's retry or abandon. */
  deadLetterTimeoutMs: number;
  /** Absent for a scheduled run: the run's start time stands in. */
  submittedAt?: string;
  /** The schedule that started the run, when one did. */
  scheduleId?: string;
}
