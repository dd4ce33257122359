import { setting, type SettingsArea } from '../settings/setting';
import { bool, duration, int, listOf, text } from '../settings/setting-types';

export const workerArea = {
  title: 'Workers',
  settings: {
    priorities: setting({
      env: 'WORKER_PRIORITIES',
      type: listOf(['interactive', 'bulk']),
      default: 'interactive,bulk',
      doc: 'task queues a worker process polls (the local stack runs one process per queue)',
    }),
    maxConcurrentActivities: setting({
      env: 'WORKER_MAX_CONCURRENT_ACTIVITIES',
      type: int({ min: 1, max: 10_000 }),
      defaultDoc: 'derived from the token budget; 20 when the budget is off',
      doc: 'fixed activity slots per worker process',
    }),
    maxConcurrentWorkflowTasks: setting({
      env: 'WORKER_MAX_CONCURRENT_WORKFLOW_TASKS',
      type: int({ min: 2, max: 1_000 }),
      default: '10',
      doc: 'workflow task slots per worker process; more only queue tasks inside the worker, where their 10 s timeout runs (a CPU-starved worker then redoes timed-out tasks instead of new ones)',
    }),
    maxCachedWorkflows: setting({
      env: 'WORKER_MAX_CACHED_WORKFLOWS',
      type: int({ min: 0, max: 100_000 }),
      default: '300',
      doc: "workflows each queue's worker keeps in memory between their tasks; one that was evicted replays its history on its next task. The SDK's own default (from the heap, about 2,000) filled a bulk worker with thousands of jobs waiting on their batch and slowed its workflow tasks to a crawl (docs/testing.md, backfill)",
    }),
    workflowTaskPolls: setting({
      env: 'WORKFLOW_TASK_POLLS',
      type: int({ min: 1, max: 1_000 }),
      defaultDoc: "WORKER_MAX_CONCURRENT_WORKFLOW_TASKS, at most 10 (the SDK's own default)",
      doc: 'workflow task long polls a worker keeps open per queue, shared between its sticky and normal queue; slots + 10 made no difference the throughput bench could tell from its noise (docs/testing.md)',
    }),
    versioning: setting({
      env: 'WORKER_VERSIONING',
      type: bool(),
      default: 'true',
      localDefault: 'false',
      doc: 'Worker Deployment Versioning: jobs stay on the build that started them; a deploy takes new jobs only after `set-current-version` (docs/operations.md)',
    }),
    deploymentName: setting({
      env: 'WORKER_DEPLOYMENT_NAME',
      type: text(),
      default: 'slowlane',
      doc: 'the Worker Deployment every worker process of this fleet belongs to',
    }),
    buildId: setting({
      env: 'WORKER_BUILD_ID',
      type: text(),
      defaultDoc: '`wf-` + a hash of the workflow bundle (changes exactly when workflow code does)',
      doc: "this worker's build id within the deployment",
    }),
    shutdownGraceMs: setting({
      env: 'WORKER_SHUTDOWN_GRACE',
      type: duration(),
      default: '10s',
      doc: 'how long in-flight activities may finish on SIGTERM',
    }),
  },
} satisfies SettingsArea;

/**
 * The workflow task polls a worker keeps open: WORKFLOW_TASK_POLLS, else what the SDK opens by itself for fixed slots
 * (said here because with the token budget's tuner the SDK would open 10 whatever the slots).
 */
export function workflowTaskPolls(worker: { workflowTaskPolls?: number; maxConcurrentWorkflowTasks: number }): number {
  return worker.workflowTaskPolls ?? Math.min(worker.maxConcurrentWorkflowTasks, 10);
}
