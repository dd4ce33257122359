import type { Client } from '@temporalio/client';
import { Counter, type Registry } from 'prom-client';
import { METRIC_PREFIX } from './metrics';

/** Runs a schedule did not start, as Temporal counts them since the schedule was created. */
export interface ScheduleMisses {
  tenant: string;
  schedule: string;
  jobType: string;
  /** The previous run was still going at a scheduled time (overlap policy SKIP, api/schedules/schedules-service.ts). */
  skippedOverlap: number;
  /** A time passed while the server was away for longer than the catch-up window. */
  missedCatchupWindow: number;
}

/** What the API wrote in a schedule's memo (api/schedules/schedule-view.ts); other schedules are not the product's. */
interface ProductScheduleMemo {
  tenantId?: string;
  scheduleId?: string;
  type?: string;
}

/**
 * Every product schedule's skipped and missed runs: one DescribeSchedule each, since the list does not carry the
 * counts. Schedules deleted between the list and the describe are left out.
 */
export async function readScheduleMisses(client: Client): Promise<ScheduleMisses[]> {
  const found: ScheduleMisses[] = [];
  for await (const summary of client.schedule.list()) {
    const memo = (summary.memo ?? {}) as ProductScheduleMemo;
    if (!memo.tenantId || !memo.scheduleId) continue;
    const description = await client.schedule
      .getHandle(summary.scheduleId)
      .describe()
      .catch(() => undefined);
    if (!description) continue;
    found.push({
      tenant: memo.tenantId,
      schedule: memo.scheduleId,
      jobType: memo.type ?? 'unknown',
      skippedOverlap: description.info.numActionsSkippedOverlap,
      missedCatchupWindow: description.info.numActionsMissedCatchupWindow,
    });
  }
  return found;
}

/**
 * `slowlane_schedule_runs_skipped_total`: Temporal's own counts, exported as counters so `increase()` shows a skip
 * when it happens. Per schedule, so a deleted schedule's series ends rather than a sum going down.
 */
export function registerScheduleCounters(registry: Registry, read: () => Promise<ScheduleMisses[]>): void {
  new Counter({
    name: `${METRIC_PREFIX}schedule_runs_skipped_total`,
    help: 'Scheduled runs that did not start: reason overlap (the previous run was still going) or catchup_window (the server was away too long)',
    labelNames: ['tenant', 'schedule', 'job_type', 'reason'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await read()) {
        const labels = { tenant: row.tenant, schedule: row.schedule, job_type: row.jobType };
        this.inc({ ...labels, reason: 'overlap' }, row.skippedOverlap);
        this.inc({ ...labels, reason: 'catchup_window' }, row.missedCatchupWindow);
      }
    },
  });
}
