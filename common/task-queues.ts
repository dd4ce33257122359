export type Priority = 'interactive' | 'bulk';
export const PRIORITIES: readonly Priority[] = ['interactive', 'bulk'];

/** One task queue per priority class, so bulk backfills never sit in front of a waiting user. */
export function taskQueueFor(priority: Priority, prefix = 'slowlane'): string {
  return `${prefix}-${priority}`;
}
