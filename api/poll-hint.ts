import type { JobStatus } from '../common/job';

/**
 * The `Retry-After` (seconds) GET /jobs/:id sends: how long a polling client should wait before asking again.
 * A hint, not a promise. A job being worked on changes within seconds; one waiting for a person (a reviewer, up
 * to 48 h, or an operator, for a dead letter) does not change until that person acts, so polling it every 2 s
 * only costs requests. A finished job has nothing more to wait for: no header.
 */
const RETRY_AFTER_SECONDS: Record<JobStatus, number | undefined> = {
  queued: 2,
  processing: 2,
  awaiting_review: 60,
  dead_letter: 60,
  // Waits for the window to turn (hours) or an operator: nothing changes in seconds.
  budget_wait: 60,
  posted: undefined,
  completed: undefined,
  rejected: undefined,
  review_expired: undefined,
  failed: undefined,
  cancelled: undefined,
};

export function retryAfterSeconds(status: JobStatus): number | undefined {
  return RETRY_AFTER_SECONDS[status];
}
