import type { ScheduleDescription, ScheduleSummary } from '@temporalio/client';
import type { Schedule } from '../../common/api-contract/schedule';
import { compact } from '../../common/compact';
import type { Priority } from '../../common/task-queues';
import type { Config } from '../../lib/config';

/** What the API writes into a schedule's memo: the request as the client gave it, so it reads back unchanged. */
export interface ScheduleMemo {
  tenantId: string;
  scheduleId: string;
  type: Schedule['type'];
  cron?: string;
  every?: string;
  timezone: string;
  inputJobId: string;
  priority: Priority;
}

/** The schedule as a client sees it: its request, state and runs, from the server (no worker is involved). */
export function toScheduleView(
  config: Pick<Config, 'api' | 'temporal'>,
  temporalId: string,
  schedule: Pick<ScheduleDescription | ScheduleSummary, 'memo' | 'state' | 'info'>,
): Schedule {
  const memo = schedule.memo as unknown as ScheduleMemo;
  const info = schedule.info as Partial<ScheduleDescription['info']>;
  return compact({
    scheduleId: memo.scheduleId,
    type: memo.type,
    cron: memo.cron,
    every: memo.every,
    timezone: memo.timezone,
    input: { jobId: memo.inputJobId },
    priority: memo.priority,
    note: schedule.state.note || undefined,
    state: schedule.state.paused ? 'paused' : 'active',
    createdAt: info.createdAt?.toISOString(),
    nextRunAt: schedule.state.paused ? [] : (info.nextActionTimes ?? []).slice(0, 5).map((at) => at.toISOString()),
    recentRuns: (info.recentActions ?? []).map((run) => ({
      scheduledAt: run.scheduledAt.toISOString(),
      startedAt: run.takenAt.toISOString(),
      jobId: run.action.workflow.workflowId,
    })),
    links: {
      self: `${config.api.publicUrl}/schedules/${encodeURIComponent(memo.scheduleId)}`,
      temporal: `${config.temporal.webUiUrl}/namespaces/${encodeURIComponent(config.temporal.namespace)}/schedules/${encodeURIComponent(temporalId)}`,
    },
  }) as Schedule;
}
