import { type Client, WorkflowFailedError } from '@temporalio/client';

export interface Settled {
  /** performance.now() when the last job closed, as this process learned it. */
  lastSettledAt: number;
  /** performance.now() of each job's close, as this process learned it, in that order (for --timeline). */
  settledAt: number[];
  failed: number;
}

/**
 * Waits for every workflow to close (one long poll each), failing the run if they have not within the deadline, so
 * the benchmark always stops by itself.
 */
export async function waitSettled(client: Client, ids: string[], deadlineMs: number): Promise<Settled> {
  let failed = 0;
  let lastSettledAt = 0;
  const settledAt: number[] = [];
  const all = Promise.all(
    ids.map(async (id) => {
      try {
        await client.workflow.getHandle(id).result();
      } catch (error) {
        if (!(error instanceof WorkflowFailedError)) throw error;
        failed++;
      }
      const now = performance.now();
      settledAt.push(now);
      lastSettledAt = Math.max(lastSettledAt, now);
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`jobs not settled within ${deadlineMs / 1000} s`)), deadlineMs);
  });
  try {
    await Promise.race([all, deadline]);
  } finally {
    clearTimeout(timer);
  }
  return { lastSettledAt, settledAt, failed };
}

/** How many activities one settled job ran: the bare ceiling runs the same number. */
export async function activitiesIn(client: Client, workflowId: string): Promise<number> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).filter((event) => event.activityTaskScheduledEventAttributes).length;
}
