import { join } from 'node:path';
import { bundleWorkflowCode, type NativeConnection, Worker, type WorkflowBundle } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { type Priority, taskQueueFor } from '../common/task-queues';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import { ActivityFailureInterceptor } from './activity-failure-interceptor';

export const WORKFLOWS_PATH = join(__dirname, '..', 'workflows', 'index.ts');

/** Bundled once per process and shared by the workers of every queue (bundling takes seconds). */
export async function bundleWorkflows(): Promise<WorkflowBundle> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietBundlerLogger });
}

const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string, meta?: Record<string, unknown>) => console.warn(message, meta ?? ''),
  error: (message: string, meta?: Record<string, unknown>) => console.error(message, meta ?? ''),
};

export interface CreateWorkersOptions {
  connection: NativeConnection;
  config: Pick<Config, 'temporal' | 'worker'>;
  deps: ActivityDeps;
  workflowBundle: WorkflowBundle;
  log: Logger;
  priorities?: Priority[];
}

/** One Worker per priority queue this process serves; each polls only its own queue. */
export async function createWorkers(options: CreateWorkersOptions): Promise<Worker[]> {
  const activities = createActivities(options.deps);
  const priorities = options.priorities ?? options.config.worker.priorities;
  return Promise.all(
    priorities.map((priority) =>
      Worker.create({
        connection: options.connection,
        namespace: options.config.temporal.namespace,
        taskQueue: taskQueueFor(priority, options.config.temporal.taskQueuePrefix),
        workflowBundle: options.workflowBundle,
        activities,
        interceptors: { activity: [() => ({ inbound: new ActivityFailureInterceptor() })] },
        maxConcurrentActivityTaskExecutions: options.config.worker.maxConcurrentActivities,
        shutdownGraceTime: options.config.worker.shutdownGraceMs,
      }),
    ),
  );
}
