import { createHash } from 'node:crypto';
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { objectKeys, type ObjectStore } from '../object-store';

/**
 * Temporal deletes a closed execution asynchronously: it waits until the close is acknowledged by its queues (up to
 * `history.transferProcessorUpdateAckInterval`, 30 s by default, and a retry after it). Meanwhile the API must not
 * show the erased job, so the erasure leaves a mark naming the runs it deleted, and reads of a closed job check it.
 * A mark names runs, not the job id: the same Idempotency-Key may start a new job at once.
 */
/** How long a read of a closed job waits for its mark before it shows the job. */
const MARK_READ_MS = 1_000;

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
     * Whether this run was erased and is only waiting for the server to delete it. Only a closed run can be (an
     * erasure closes what runs); an unreadable mark shows the job rather than failing the read.
     */
    async hides(tenantId: string, description: Pick<WorkflowExecutionInfo, 'workflowId' | 'runId' | 'closeTime'>): Promise<boolean> {
      if (description.closeTime === undefined) return false;
      const key = keyOf(tenantId, description.workflowId);
      const read = async () => {
        if (!(await store.exists(key))) return false;
        const mark = JSON.parse((await store.getBytes(key)).toString('utf8')) as ErasureMark;
        return mark.runIds.includes(description.runId);
      };
      // GET /jobs/:id answers from Temporal alone while S3 is away; the mark may not hold it up for long.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), MARK_READ_MS);
      });
      try {
        return await Promise.race([read(), late]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type ErasureMarks = ReturnType<typeof erasureMarks>;
