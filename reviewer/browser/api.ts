import type { JobView } from '../../api/job-view';

export type { JobView };

/** A row of the queue (GET /jobs?status=awaiting_review). */
export interface QueueJob {
  jobId: string;
  status: string;
  fileName?: string;
  priority?: string;
  submittedAt?: string;
  reviewDeadline?: string;
  links: Record<string, string>;
}

/** GET /review/session: who the token belongs to and what the page needs to know. */
export interface ReviewSession {
  tenantId: string;
  role: 'api' | 'reviewer';
  reviewer: string;
  confidenceThreshold: number;
}

export type ReviewDecision =
  | { decision: 'approve'; fields: Record<string, unknown>; reviewer: string }
  | { decision: 'reject'; reason: string; reviewer: string };

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

const QUEUE_PAGE = 200;
/** The queue shows at most this many jobs; a team with more needs filters, not a longer page. */
const QUEUE_MAX = 1000;

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

    async queue(): Promise<QueueJob[]> {
      const jobs: QueueJob[] = [];
      let pageToken: string | undefined;
      do {
        const query = new URLSearchParams({ status: 'awaiting_review', limit: String(QUEUE_PAGE), ...(pageToken ? { pageToken } : {}) });
        const page = await json<{ jobs: QueueJob[]; nextPageToken?: string }>(`/jobs?${query}`);
        jobs.push(...page.jobs);
        pageToken = page.nextPageToken;
      } while (pageToken && jobs.length < QUEUE_MAX);
      return jobs;
    },

    job: (jobId: string) => json<JobView>(`/jobs/${encodeURIComponent(jobId)}`),

    document: (jobId: string) => send(`/jobs/${encodeURIComponent(jobId)}/document`),

    /** `requestId` names this decision: sent again after a lost answer, it is the same decision, not a second one. */
    review: (jobId: string, decision: ReviewDecision, requestId: string) =>
      json<JobView>(`/jobs/${encodeURIComponent(jobId)}/review`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': requestId },
        body: JSON.stringify(decision),
      }),
  };
}

export type ReviewerApi = ReturnType<typeof createApi>;
