/** The retention sweep's shapes, shared by its workflow (workflows/retention/) and activities (activities/retention/). */

/** The Temporal Schedule that starts the sweep; the workflow id of each run is this id and a timestamp. */
export const RETENTION_SCHEDULE_ID = 'slowlane-retention-sweep';
export const RETENTION_SWEEP_WORKFLOW_ID = 'slowlane-retention-sweep';

/** Where a sweep resumes: a tenant, the close-time bound its listing started with, and visibility's page token. */
export interface SweepCursor {
  tenantId: string;
  /** ISO time: the listing asks for jobs closed before it, the same bound on every page of the tenant. */
  closedBefore?: string;
  /** Visibility's next page token, base64. */
  pageToken?: string;
}

/** A job visibility lists as closed before its tenant's retention bound. */
export interface ExpiredJob {
  tenantId: string;
  jobId: string;
  closedBefore: string;
}

export interface ExpiredJobsPage {
  jobs: ExpiredJob[];
  /** Undefined once every tenant is listed. */
  next?: SweepCursor;
}

/** What a sweep deleted, and what it left: a job running again (reset) or closed again since it was listed. */
export interface SweepTotals {
  jobs: number;
  objects: number;
  executions: number;
  /** Uploads another job of the tenant still reads (a running job's input among them). */
  sharedObjectsKept: number;
  /** Listed, but its current run runs or closed within the retention. */
  jobsKept: number;
}

export const NO_SWEEP_TOTALS: SweepTotals = { jobs: 0, objects: 0, executions: 0, sharedObjectsKept: 0, jobsKept: 0 };

export function addSweepTotals(a: SweepTotals, b: SweepTotals): SweepTotals {
  return {
    jobs: a.jobs + b.jobs,
    objects: a.objects + b.objects,
    executions: a.executions + b.executions,
    sharedObjectsKept: a.sharedObjectsKept + b.sharedObjectsKept,
    jobsKept: a.jobsKept + b.jobsKept,
  };
}

export interface RetentionSweepInput {
  /** Where the previous run stopped when it continued as new. */
  cursor?: SweepCursor;
  /** What the earlier runs of this sweep deleted. */
  totals?: SweepTotals;
}

/** One page of the sweep over uploaded scans, then speech transcripts (activities/retention/sweep-provider-files.ts). */
export interface ProviderFilesSweepPage {
  /** Ended jobs whose uploads, or whose transcripts and callback records, were deleted. */
  jobs: number;
  files: number;
  /** Transcripts deleted at the speech provider; absent where this page swept no speech records. */
  transcripts?: number;
  /** The last record key looked at, when more may follow. */
  next?: string;
}
