import { createHash } from 'node:crypto';
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { objectKeys, type ObjectStore } from '../../lib/object-store';

/**
 * Temporal deletes a closed execution asynchronously: it waits until the close is acknowledged by its queues (up to
 * `history.transferProcessorUpdateAckInterval`, 30 s by default, and a retry after it). Meanwhile the API must not
 * show the erased job, so the erasure leaves a mark naming the runs it deleted, and reads of a recently closed job
 * check it. A mark names runs, not the job id: the same Idempotency-Key may start a new job at once.
 */
const MARK_WINDOW_MS = 10 * 60_000;

interface ErasureMark {
  runIds: string[];
  erasedAt: string;
}

export function erasureMarks(store: ObjectStore) {
  const keyOf = (tenantId: string, jobId: string) => objectKeys.erasureMark(tenantId, createHash('sha256').update(jobId).digest('hex'));

  return {
    async mark(tenantId: string, jobId: string, runIds: readonly string[]): Promise<void> {
      const mark: ErasureMark = { runIds: [...runIds], erasedAt: new Date().toISOString() };
      await store.put(keyOf(tenantId, jobId), JSON.stringify(mark), { contentType: 'application/json' });
    },

    /** Once the server no longer has the runs, the mark has nothing left to hide. */
    async clear(tenantId: string, jobId: string): Promise<void> {
      await store.deleteMany([keyOf(tenantId, jobId)]);
    },

    /**
     * Whether this run was erased and is only waiting for the server to delete it. Only a run closed in the last
     * minutes can be (an erasure closes what runs); an unreadable mark shows the job rather than failing the read.
     */
    async hides(tenantId: string, description: Pick<WorkflowExecutionInfo, 'workflowId' | 'runId' | 'closeTime'>): Promise<boolean> {
      const closed = description.closeTime?.getTime();
      if (closed === undefined || Date.now() - closed > MARK_WINDOW_MS) return false;
      const key = keyOf(tenantId, description.workflowId);
      try {
        if (!(await store.exists(key))) return false;
        const mark = JSON.parse((await store.getBytes(key)).toString('utf8')) as ErasureMark;
        return mark.runIds.includes(description.runId);
      } catch {
        return false;
      }
    },
  };
}

export type ErasureMarks = ReturnType<typeof erasureMarks>;
