import { JOB_TYPES } from '../common/job-types/registry';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Counter, Gauge, type Registry } from 'prom-client';
import { PRIORITIES, taskQueueFor } from '../common/task-queues';
import type { Config } from './config';
import { METRIC_PREFIX } from './metrics';
import { laneWaitReader, registerLaneWaitGauge } from './metrics-batch-lane-wait';
import { readScheduleMisses, registerScheduleCounters } from './metrics-schedules';

const { TaskQueueType } = temporal.api.enums.v1;
const QUEUE_TYPES = [
  { type: 'workflow', value: TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW },
  { type: 'activity', value: TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY },
] as const;
/** Jobs still open in these statuses; finished ones are counted by the workers (slowlane_jobs_finished_total). */
const OPEN_STATUSES = ['queued', 'processing', 'awaiting_review', 'dead_letter', 'budget_wait'] as const;

/** Runs `load` at most once per `ttlMs`; concurrent scrapes share one request. */
export function cached<T>(load: () => Promise<T>, ttlMs: number, now = Date.now): () => Promise<T> {
  let entry: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!entry || now() - entry.at >= ttlMs) {
      const value = load();
      entry = { at: now(), value };
      // A failed read is not cached: the next scrape asks again. A late failure must not drop a newer read.
      value.catch(() => {
        if (entry?.value === value) entry = undefined;
      });
    }
    return entry.value;
  };
}

export interface QueueStats {
  taskQueue: string;
  priority: string;
  type: 'workflow' | 'activity';
  backlog: number;
  backlogAgeSeconds: number;
  addRate: number;
  dispatchRate: number;
}

function seconds(duration: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  return Number(duration?.seconds ?? 0) + (duration?.nanos ?? 0) / 1e9;
}

/** DescribeTaskQueue with report_stats for both queues and both task types (Temporal API's DescribeTaskQueueRequest.report_stats). */
export async function readQueueStats(client: Client, config: Pick<Config, 'temporal'>): Promise<QueueStats[]> {
  const reads = PRIORITIES.flatMap((priority) =>
    QUEUE_TYPES.map(async ({ type, value }) => {
      const taskQueue = taskQueueFor(priority, config.temporal.taskQueuePrefix);
      const response = await client.workflowService.describeTaskQueue({
        namespace: config.temporal.namespace,
        taskQueue: { name: taskQueue },
        taskQueueType: value,
        reportStats: true,
      });
      const stats = response.stats;
      return {
        taskQueue,
        priority,
        type,
        backlog: Number(stats?.approximateBacklogCount ?? 0),
        backlogAgeSeconds: seconds(stats?.approximateBacklogAge),
        addRate: stats?.tasksAddRate ?? 0,
        dispatchRate: stats?.tasksDispatchRate ?? 0,
      };
    }),
  );
  return Promise.all(reads);
}

export interface OpenJobCount {
  jobType: string;
  priority: string;
  status: string;
  count: number;
}

/** Open jobs per priority and status, counted by Temporal visibility (the workflows are the job records). */
export async function countOpenJobs(client: Client, config: Pick<Config, 'temporal'>): Promise<OpenJobCount[]> {
  const counts = JOB_TYPES.flatMap((jobType) =>
    PRIORITIES.flatMap((priority) =>
      OPEN_STATUSES.map(async (status) => {
        const { count } = await client.workflowService.countWorkflowExecutions({
          namespace: config.temporal.namespace,
          query: `JobType = '${jobType}' AND Priority = '${priority}' AND JobStatus = '${status}' AND ExecutionStatus = 'Running'`,
        });
        return { jobType, priority, status, count: Number(count ?? 0) };
      }),
    ),
  );
  return Promise.all(counts);
}

/**
 * Gauges read from Temporal at scrape time: backlog and age of the oldest task per task queue, open jobs by status,
 * and, at most once per METRICS_DESCRIBE_CACHE, the schedules' skipped runs and the batch lane's oldest waiting entry.
 * Registered in the API process only, so a fleet of workers does not report the same queue many times.
 */
export function registerTemporalGauges(registry: Registry, client: Client, config: Pick<Config, 'temporal' | 'observability'>): void {
  const ttl = config.observability.temporalStatsCacheMs;
  const registers = [registry];
  const readErrors = new Counter({
    name: `${METRIC_PREFIX}temporal_stats_errors_total`,
    help: 'Scrapes whose queue or job counts could not be read from Temporal (those gauges are then absent)',
    labelNames: ['source'] as const,
    registers,
  });
  // Temporal being unreachable must not fail the whole scrape: the process's own metrics still matter then.
  const orNothing = <T>(source: string, read: () => Promise<T[]>) => async (): Promise<T[]> =>
    read().catch(() => {
      readErrors.inc({ source });
      return [];
    });
  const queueStats = orNothing('describe_task_queue', cached(() => readQueueStats(client, config), ttl));
  const openJobs = orNothing('count_workflows', cached(() => countOpenJobs(client, config), ttl));
  registerScheduleCounters(
    registry,
    orNothing('describe_schedule', cached(() => readScheduleMisses(client), config.observability.describeStatsCacheMs)),
  );
  registerLaneWaitGauge(registry, orNothing('query_batch_lane', cached(laneWaitReader(client), config.observability.describeStatsCacheMs)));
  const queueLabels = ['task_queue', 'priority', 'type'] as const;
  const queueGauge = (suffix: string, help: string, pick: (stats: QueueStats) => number) =>
    new Gauge({
      name: `${METRIC_PREFIX}${suffix}`,
      help,
      labelNames: queueLabels,
      registers,
      async collect() {
        this.reset();
        for (const stats of await queueStats()) {
          this.set({ task_queue: stats.taskQueue, priority: stats.priority, type: stats.type }, pick(stats));
        }
      },
    });
  queueGauge('task_queue_backlog', 'Tasks waiting in the task queue (approximate, from DescribeTaskQueue)', (s) => s.backlog);
  queueGauge('task_queue_backlog_age_seconds', 'Age of the oldest task waiting in the task queue', (s) => s.backlogAgeSeconds);
  queueGauge('task_queue_add_rate', 'Tasks added per second (30 s average)', (s) => s.addRate);
  queueGauge('task_queue_dispatch_rate', 'Tasks dispatched to workers per second (30 s average)', (s) => s.dispatchRate);
  new Gauge({
    name: `${METRIC_PREFIX}jobs`,
    help: 'Open jobs by type, priority and status (queued, processing, awaiting_review, dead_letter, budget_wait)',
    labelNames: ['job_type', 'priority', 'status'] as const,
    registers,
    async collect() {
      this.reset();
      for (const { jobType, priority, status, count } of await openJobs()) {
        this.set({ job_type: jobType, priority, status }, count);
      }
    },
  });
}
