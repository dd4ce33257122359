import type { RetentionActivities } from '../../activities/retention';
import { addSweepTotals, type ExpiredJob, NO_SWEEP_TOTALS, type SweepCursor, type SweepTotals } from '../../common/retention';

/**
 * The sweep's activities over a scripted namespace: `pages` of expired job ids, one page per listing, each job
 * erasing two objects and one execution. Records what the workflow asked, so a test can read its cursors back.
 */
export function fakeRetentionActivities(pages: string[][]) {
  const cursors: Array<SweepCursor | undefined> = [];
  const erased: string[] = [];
  const closedBefore = '2026-01-01T00:00:00.000Z';
  const activities: RetentionActivities = {
    async listExpiredJobs(input) {
      cursors.push(input.cursor);
      const index = input.cursor ? Number(input.cursor.pageToken) : 0;
      const jobs: ExpiredJob[] = (pages[index] ?? []).map((jobId) => ({ tenantId: 'test', jobId, closedBefore }));
      return index + 1 < pages.length ? { jobs, next: { tenantId: 'test', closedBefore, pageToken: String(index + 1) } } : { jobs };
    },
    async eraseExpiredJobs(input) {
      let totals: SweepTotals = NO_SWEEP_TOTALS;
      for (const job of input.jobs) {
        erased.push(job.jobId);
        totals = addSweepTotals(totals, { ...NO_SWEEP_TOTALS, jobs: 1, objects: 2, executions: 1 });
      }
      return totals;
    },
    async sweepProviderFiles() {
      return { jobs: 1, files: 2 };
    },
  };
  return { activities, cursors, erased };
}
