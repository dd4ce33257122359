import type { PushMessage, PushScope } from './api-contract/push';
import type { JobStatus } from './job';

export type { PushMessage, PushScope };

/**
 * Which subscriptions hear of a status: a job's own hear that it finished, failed or waits for review; the review
 * queue's hear of every job that starts waiting for review. Other statuses push nothing.
 */
export const PUSH_SCOPES_FOR_STATUS: Partial<Record<JobStatus, readonly PushScope[]>> = {
  awaiting_review: ['job', 'review_queue'],
  posted: ['job'],
  completed: ['job'],
  rejected: ['job'],
  review_expired: ['job'],
  failed: ['job'],
  dead_letter: ['job'],
  cancelled: ['job'],
};

/** A push's body before it is addressed: each delivery adds the scope of the subscription it goes to. */
export type PushEvent = Omit<PushMessage, 'scope'>;

/** One status event of a job to push to every subscription of the scopes that hear of it. */
export interface PushNotification {
  tenantId: string;
  scopes: readonly PushScope[];
  message: PushEvent;
}

/** One stored subscription, named by what the store needs to find it (lib/push/push-subscriptions.ts). */
export interface PushTarget {
  id: string;
  scope: PushScope;
}

export interface DeliverPushInput {
  tenantId: string;
  target: PushTarget;
  message: PushEvent;
}

/** `gone`: the push service answered 404/410 (or the subscription was deleted meanwhile); it is removed. */
export type PushOutcome = { outcome: 'delivered'; status: number } | { outcome: 'gone' };

/** A push delivery's workflow id: one per job event, so a repeated start of the same event finds the one running. */
export function pushDeliveryId(jobId: string, eventSeq: number): string {
  return `push:${jobId}:${eventSeq}`;
}
