export const PRIORITIES = ['interactive', 'bulk'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** One task queue per priority class, so bulk backfills never sit in front of a waiting user. */
export function taskQueueFor(priority: Priority, prefix = 'slowlane'): string {
  return `${prefix}-${priority}`;
}

/**
 * The batch lane's own activities (submit, read, answer a batch): a queue of their own with slots of their own, so a
 * batch's answers never wait behind the thousands of job steps its previous batch set going, and they need no token
 * budget (a Redis outage does not pause them).
 */
export function batchLaneTaskQueue(prefix = 'slowlane'): string {
  return `${prefix}-batch-lane`;
}
