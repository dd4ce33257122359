import { type Client, ScheduleAlreadyRunning, type ScheduleOptionsAction, type ScheduleSpec } from '@temporalio/client';
import { RETENTION_SCHEDULE_ID, RETENTION_SWEEP_WORKFLOW_ID } from '../common/retention';
import { taskQueueFor } from '../common/task-queues';
import type { Config } from '../lib/config';
import { retentionMsOf } from '../lib/config/retention';
import type { Logger } from '../lib/logger';
import { namespaceRetentionMs } from '../lib/namespace-retention';

/**
 * Creates the retention sweep's Temporal Schedule, or brings an existing one to this worker's settings: every worker
 * that serves bulk calls it at start, so the first one creates it and the rest (and restarts) change nothing.
 */
export async function ensureRetentionSchedule(client: Client, config: Pick<Config, 'retention' | 'tenants' | 'temporal'>, log: Logger): Promise<void> {
  const spec: ScheduleSpec = { intervals: [{ every: config.retention.sweepEveryMs }] };
  const action: ScheduleOptionsAction = {
    type: 'startWorkflow',
    workflowType: 'retentionSweepWorkflow',
    workflowId: RETENTION_SWEEP_WORKFLOW_ID,
    taskQueue: taskQueueFor('bulk', config.temporal.taskQueuePrefix),
    args: [{}],
    staticSummary: "Deletes what closed jobs left behind once past their tenant's retention",
  };
  try {
    await client.schedule.create({
      scheduleId: RETENTION_SCHEDULE_ID,
      spec,
      action,
      // A sweep still running when the next is due has the same work ahead of it.
      policies: { overlap: 'SKIP', catchupWindow: '1 hour' },
    });
    log.info({ scheduleId: RETENTION_SCHEDULE_ID, everyMs: config.retention.sweepEveryMs }, 'retention sweep scheduled');
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule.getHandle(RETENTION_SCHEDULE_ID).update((previous) => ({ ...previous, spec, action }));
  }
  await warnOfUnreachableRetention(client, config, log);
}

/** Past the namespace's retention the server deletes a job's history, and with it the sweep's way to its objects. */
async function warnOfUnreachableRetention(client: Client, config: Pick<Config, 'retention' | 'tenants'>, log: Logger): Promise<void> {
  const namespaceMs = await namespaceRetentionMs(client);
  const beyond = config.tenants.filter((tenant) => retentionMsOf(config.retention, tenant.id) > namespaceMs).map((tenant) => tenant.id);
  if (beyond.length > 0) {
    log.warn(
      { tenants: beyond, namespaceRetentionMs: namespaceMs },
      "these tenants' retention is longer than the namespace's: their jobs' histories go first, and the sweep can no longer find their objects (docs/security.md)",
    );
  }
}
