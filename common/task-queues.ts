export const PRIORITIES = ['interactive', 'bulk'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** One task queue per priority class, so bulk backfills never sit in front of a waiting user. */
export function taskQueueFor(priority: Priority, prefix = 'slowlane'): string {
  return `${prefix}-${priority}`;
}
