import type { CallTranscript } from '../../common/api-contract/call-transcript';
import type { Job } from '../../common/api-contract/job';
import type { JobSummary } from '../../common/api-contract/job-list';
import type { SocketToken } from '../../common/api-contract/job-socket';
import type { ReviewSession } from '../../common/api-contract/meta';
import { byOldest } from './time-left';

// The page's view of the API is the API contract: a job, a row of the queue (GET /jobs?status=awaiting_review), and
// who the token belongs to (GET /review/session).
export type { Job, JobSummary, ReviewSession };

/** No reviewer field: the API records the signed-in identity. Fields only for a type approved with them (its `editable`). */
export type ReviewDecision = { decision: 'approve'; fields?: Record<string, unknown> } | { decision: 'reject'; reason: string };

/** An error answer of the API: `{ error: { code, message, details } }`. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface QueuePageAnswer {
  jobs: JobSummary[];
  nextPageToken?: string;
}

/** The largest page GET /jobs gives (its `limit`). */
export const QUEUE_PAGE = 200;
/** The queue shows at most this many jobs, the closest to expiring; a team with more needs filters, not a longer page. */
export const QUEUE_MAX = 1000;
/** At most this many pages are read per refresh (20,000 jobs awaiting review); past it the queue says so instead. */
export const QUEUE_SCAN_PAGES = 100;

/**
 * The jobs awaiting review, the closest to expiring first, at most `max` of them. Temporal's SQL visibility cannot
 * ORDER BY (the dev server's SQLite answers "operation is not supported: 'order by' clause") and lists running
 * workflows newest first, so the oldest jobs come last: every page is read and sorted here, keeping only the
 * `max` most urgent in memory. A backlog beyond `maxPages` is an error, not a queue that silently leaves out the
 * oldest jobs.
 */
export async function collectQueue(
  readPage: (pageToken: string | undefined) => Promise<QueuePageAnswer>,
  limits: { max: number; maxPages: number } = { max: QUEUE_MAX, maxPages: QUEUE_SCAN_PAGES },
): Promise<JobSummary[]> {
  let kept: JobSummary[] = [];
  let pageToken: string | undefined;
  let pages = 0;
  do {
    if (pages === limits.maxPages) {
      throw new Error(`more than ${limits.maxPages} pages of jobs await review; the queue cannot tell which expire first`);
    }
    const page = await readPage(pageToken);
    pages += 1;
    // A job can come twice when the list moves between pages; it is one row.
    const seen = new Set(kept.map((job) => job.jobId));
    const fresh = page.jobs.filter((job) => !seen.has(job.jobId));
    kept = [...kept, ...fresh].sort(byOldest).slice(0, limits.max);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return kept;
}

export function createApi(token: string) {
  async function send(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(path, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
    if (response.ok) return response;
    const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string; details?: Record<string, unknown> } };
    throw new ApiRequestError(
      response.status,
      body.error?.code ?? `http_${response.status}`,
      body.error?.message ?? `${response.status} ${response.statusText}`,
      body.error?.details ?? {},
    );
  }
  const json = async <T>(path: string, init?: RequestInit): Promise<T> => (await (await send(path, init)).json()) as T;

  return {
    session: () => json<ReviewSession>('/review/session'),

    /** Oldest first (see collectQueue). */
    queue: (): Promise<JobSummary[]> =>
      collectQueue((pageToken) => {
        const query = new URLSearchParams({ status: 'awaiting_review', limit: String(QUEUE_PAGE), ...(pageToken ? { pageToken } : {}) });
        return json<QueuePageAnswer>(`/jobs?${query}`);
      }),

    job: (jobId: string) => json<Job>(`/jobs/${encodeURIComponent(jobId)}`),

    /** Opens one WebSocket on /events/socket (reviewer/browser/live-queue.ts). */
    socketToken: () => json<SocketToken>('/events/socket/tokens', { method: 'POST' }),

    document: (jobId: string) => send(`/jobs/${encodeURIComponent(jobId)}/document`),

    /** A call's timed lines, shown beside its recording. */
    transcript: (jobId: string) => json<CallTranscript>(`/jobs/${encodeURIComponent(jobId)}/transcript`),

    /**
     * `requestId` is the Idempotency-Key; with the decision's content it names the Update (api/review-update-id.ts):
     * the same decision sent again after a lost answer is the same decision, not a second one.
     */
    review: (jobId: string, decision: ReviewDecision, requestId: string) =>
      json<Job>(`/jobs/${encodeURIComponent(jobId)}/review`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': requestId },
        body: JSON.stringify(decision),
      }),
  };
}

export type ReviewerApi = ReturnType<typeof createApi>;
