import { continueAsNew, log, patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { JobActivities } from '../../activities';
import { addSweepTotals, NO_SWEEP_TOTALS, type RetentionSweepInput, type SweepTotals } from '../../common/retention';
import { PATCHES } from '../patches';

/** Jobs listed and erased per activity: an erasure waits up to a few seconds for the server to delete a job. */
export const SWEEP_PAGE_JOBS = 20;
/** Pages per run before it continues as new: about 6 events a page keeps every run's history under 300 events. */
export const SWEEP_PAGES_PER_RUN = 40;

const { listExpiredJobs } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 5 },
});
/** Ended jobs whose uploaded scans are looked at per call (one Temporal describe each). */
export const SWEEP_PAGE_FILE_JOBS = 50;
/** Calls per run: a sweep with more leftovers than this finishes them on its next scheduled run. */
const SWEEP_FILE_PAGES = 20;

const { eraseExpiredJobs, sweepProviderFiles } = proxyActivities<JobActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  // Erasing again is safe: what is gone is skipped, what remains is found again from the executions.
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 5 },
});

/**
 * The retention sweep (the Temporal Schedule `slowlane-retention-sweep` starts it): lists closed jobs past their
 * tenant's retention a page at a time and erases each as `DELETE /jobs/:id` would, objects and executions. Returns
 * what it deleted over all its runs; a run that has listed its share of pages continues as new with its cursor.
 */
export async function retentionSweepWorkflow(input: RetentionSweepInput = {}): Promise<SweepTotals> {
  let totals = input.totals ?? NO_SWEEP_TOTALS;
  let cursor = input.cursor;
  for (let pages = 0; pages < SWEEP_PAGES_PER_RUN; pages++) {
    const page = await listExpiredJobs({ ...(cursor ? { cursor } : {}), limit: SWEEP_PAGE_JOBS });
    if (page.jobs.length > 0) totals = addSweepTotals(totals, await eraseExpiredJobs({ jobs: page.jobs }));
    if (!page.next) {
      if (patched(PATCHES.sweepDeletesProviderFiles.id)) await sweepUploadedScans();
      log.info('retention sweep done', { ...totals });
      return totals;
    }
    cursor = page.next;
    if (workflowInfo().continueAsNewSuggested) break;
  }
  return continueAsNew<typeof retentionSweepWorkflow>({ ...(cursor ? { cursor } : {}), totals });
}

/** The uploaded scans of jobs that ended without deleting them (activities/retention/sweep-provider-files.ts). */
async function sweepUploadedScans(): Promise<void> {
  let after: string | undefined;
  let files = 0;
  for (let pages = 0; pages < SWEEP_FILE_PAGES; pages++) {
    const page = await sweepProviderFiles({ ...(after ? { after } : {}), limit: SWEEP_PAGE_FILE_JOBS });
    files += page.files;
    if (!page.next) break;
    after = page.next;
  }
  log.info('retention sweep deleted uploaded scans', { files });
}
