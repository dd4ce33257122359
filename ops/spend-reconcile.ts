import { type Client, WorkflowFailedError, type WorkflowExecutionInfo } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { JobProgress, JobState, Usage } from '../common/job';
import { TENANT_ID_PATTERN } from '../common/job-id';
import { JOB_TYPES } from '../common/job-types/registry';
import { statusQuery } from '../common/messages';
import type { SpendStore } from '../gateway/spend/spend-store';

/** A difference up to a cent is rounding (float sums of many small costs), not money gone astray. */
export const TOLERANCE_USD = 0.01;
/** How long a running job's status query may take before its usage counts as unread. */
const QUERY_DEADLINE_MS = 2_000;

export interface JobUsage {
  jobId: string;
  costUsd: number | undefined;
  /** Started and ended inside the day: all its spend is the day's. Otherwise some of it may be another day's. */
  withinDay: boolean;
}

export interface Reconciliation {
  tenantId: string;
  day: string;
  /** The store's settled total for the day. */
  storeUsd: number;
  /** Usage recorded by the jobs that ran only within the day: the store's total must be at least this. */
  withinDayUsd: number;
  /** Usage recorded by jobs that ran across the day's start or end: the store's total may hold some of it. */
  straddlingUsd: number;
  jobs: number;
  /** Jobs whose usage could not be read (a running job no worker answered for, a cancelled or terminated run). */
  unread: string[];
  /** Store minus what the jobs allow: negative when the store counted less, positive when more; 0 within bounds. */
  differenceUsd: number;
}

/** `YYYY-MM-DD` to the epoch ms of its UTC start and end. */
export function dayBounds(day: string): { start: Date; end: Date } {
  const start = new Date(`${day}T00:00:00Z`);
  // Read back, so a day the calendar lacks (2026-02-30) is refused rather than rolled into March.
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== day) {
    throw new Error(`--day must be a UTC date YYYY-MM-DD, got ${day}`);
  }
  return { start, end: new Date(start.getTime() + 24 * 60 * 60_000) };
}

/**
 * The tenant's jobs that may have spent on the day, through visibility: those started before the day ended and
 * still running or closed after it began. Job workflows only (JobType is set on jobs alone: a document's chunk
 * groups are children whose usage their parent's already holds).
 */
export function jobsOfDayQueries(tenantId: string, day: string): string[] {
  if (!TENANT_ID_PATTERN.test(tenantId)) throw new Error(`not a tenant id: ${tenantId}`);
  const { start, end } = dayBounds(day);
  const jobs = `TenantId = '${tenantId}' AND JobType IN (${JOB_TYPES.map((type) => `'${type}'`).join(', ')}) AND StartTime < '${end.toISOString()}'`;
  return [`${jobs} AND ExecutionStatus = 'Running'`, `${jobs} AND CloseTime >= '${start.toISOString()}'`];
}

/** What a job recorded it spent: its result, its failure's state, or a running job's status query. */
async function recordedUsage(client: Client, info: WorkflowExecutionInfo): Promise<number | undefined> {
  const handle = client.workflow.getHandle<() => Promise<JobState>>(info.workflowId, info.runId);
  switch (info.status.name) {
    case 'COMPLETED':
      return (await handle.result()).usage.costUsd;
    case 'FAILED':
      try {
        await handle.result();
      } catch (error) {
        if (error instanceof WorkflowFailedError && error.cause instanceof ApplicationFailure) {
          return (error.cause.details?.[0] as JobState | undefined)?.usage.costUsd;
        }
      }
      return undefined;
    case 'RUNNING':
      try {
        return (await client.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(statusQuery))).usage.costUsd;
      } catch {
        // A fan-out publishes its usage so far in the memo; other jobs need a worker to say.
        return ((info.memo as { progress?: JobProgress } | undefined)?.progress?.usage as Usage | undefined)?.costUsd;
      }
    default:
      return undefined;
  }
}

/** The jobs that may have spent on the day, each with what it recorded. */
export async function jobUsageOfDay(client: Client, tenantId: string, day: string): Promise<JobUsage[]> {
  const { start, end } = dayBounds(day);
  const seen = new Map<string, JobUsage>();
  for (const query of jobsOfDayQueries(tenantId, day)) {
    for await (const info of client.workflow.list({ query })) {
      const key = `${info.workflowId}/${info.runId}`;
      if (seen.has(key)) continue;
      const withinDay = info.startTime >= start && info.closeTime !== undefined && info.closeTime < end;
      seen.set(key, { jobId: info.workflowId, costUsd: await recordedUsage(client, info), withinDay });
    }
  }
  return [...seen.values()];
}

/**
 * The tenant's day in the spend store against what its jobs recorded. Jobs that ran within the day bound the
 * store's total from below; with the jobs that straddle the day's start or end (whose calls may fall either side)
 * they bound it from above. A total outside those bounds by more than a cent is a difference: spend counted that no
 * job recorded (a call without its job's usage, a settle counted twice) or recorded but never counted (a lost
 * settle). Unread jobs are listed; they can only hide a total that looks too high.
 */
export async function reconcileTenantDay(
  deps: { client: Client; store: Pick<SpendStore, 'totalsOn'> },
  tenantId: string,
  day: string,
): Promise<Reconciliation> {
  const jobs = await jobUsageOfDay(deps.client, tenantId, day);
  const storeUsd = (await deps.store.totalsOn(tenantId, day)).day;
  const sum = (list: JobUsage[]) => list.reduce((total, job) => total + (job.costUsd ?? 0), 0);
  const withinDayUsd = sum(jobs.filter((job) => job.withinDay));
  const straddlingUsd = sum(jobs.filter((job) => !job.withinDay));
  const unread = jobs.filter((job) => job.costUsd === undefined).map((job) => job.jobId);
  const low = withinDayUsd - TOLERANCE_USD;
  const high = withinDayUsd + straddlingUsd + TOLERANCE_USD;
  const differenceUsd = storeUsd < low ? storeUsd - withinDayUsd : storeUsd > high && unread.length === 0 ? storeUsd - withinDayUsd - straddlingUsd : 0;
  return { tenantId, day, storeUsd, withinDayUsd, straddlingUsd, jobs: jobs.length, unread, differenceUsd };
}
