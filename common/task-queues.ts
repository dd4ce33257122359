export const PRIORITIES = ['interactive', 'bulk'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** One task queue per priority class, so bulk backfills never sit in front of a waiting user. */
export function taskQueueFor(priority: Priority, prefix = 'slowlane'): string {
  return `${prefix}-${priority}`;
}

/**
 * The batch lane's own queue: its collectors, batch workflows and their activities (submit, read, answer a batch).
 * A backfill puts thousands of bulk jobs' tasks on the bulk queue; behind them a collector took one signal a
 * second and a batch's answers waited for the steps the previous batch set going. Here they have slots of their
 * own, and need no token budget (a Redis outage does not pause them).
 */
export function batchLaneTaskQueue(prefix = 'slowlane'): string {
  return `${prefix}-batch-lane`;
}
