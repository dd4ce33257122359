import type { JobSummary, ReviewerApi, ReviewSession } from './api';

/** What every view of the page shares: the API, who is signed in, the queue, and navigation. */
export interface PageContext {
  api: ReviewerApi;
  session: ReviewSession;
  reviewerName: string;
  /** The queue as last loaded, oldest first. */
  queue(): JobSummary[];
  /** Forgets a decided job at once instead of waiting for the next refresh to drop it. */
  forget(jobId: string): void;
  go(hash: string): void;
  toast(message: string, kind?: 'ok' | 'error'): void;
  signOut(message?: string): void;
}

export const queueHash = '#/';
export const jobHash = (jobId: string): string => `#/jobs/${encodeURIComponent(jobId)}`;
