import { setTimeout as sleep } from 'node:timers/promises';

export interface Submitted {
  id: string;
  /** ms the submission took (for POST /jobs: until the 202). */
  acceptMs: number;
}

export interface LoadRun {
  ids: string[];
  acceptMs: number[];
  startedAt: number;
}

/** Closed loop: `submitters` callers, each submitting its next job as soon as the last one was accepted. */
export async function closedLoop(count: number, submitters: number, submit: (index: number) => Promise<Submitted>): Promise<LoadRun> {
  const ids: string[] = [];
  const acceptMs: number[] = [];
  const startedAt = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: submitters }, async () => {
      while (next < count) {
        const done = await submit(next++);
        ids.push(done.id);
        acceptMs.push(done.acceptMs);
      }
    }),
  );
  return { ids, acceptMs, startedAt };
}

/**
 * Open loop: job i is offered at start + i / rate whether or not earlier ones were answered, as independent clients
 * arrive; a slow answer cannot hold back the next arrival (no coordinated omission).
 */
export async function openLoop(count: number, perSecond: number, submit: (index: number) => Promise<Submitted>): Promise<LoadRun> {
  const startedAt = performance.now();
  const pending: Array<Promise<Submitted>> = [];
  for (let index = 0; index < count; index++) {
    const due = startedAt + (index * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(submit(index));
  }
  const done = await Promise.all(pending);
  return { ids: done.map((d) => d.id), acceptMs: done.map((d) => d.acceptMs), startedAt };
}
