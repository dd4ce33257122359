import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import {
  type ActivitySlotInfo,
  type BundleOptions,
  bundleWorkflowCode,
  type NativeConnection,
  type SlotSupplier,
  Worker,
  type WorkerDeploymentOptions,
  type WorkerOptions,
  type WorkflowBundle,
  type WorkflowBundleOption,
} from '@temporalio/worker';
import { createActivities } from '../activities';
import type { ActivityDeps } from '../activities/activity-deps';
import { batchLaneTaskQueue, type Priority, taskQueueFor } from '../common/task-queues';
import type { Config } from '../lib/config';
import { workflowTaskPolls } from '../lib/config/worker-settings';
import { dataConverterFor, FAILURE_CONVERTER_PATH } from '../lib/payload-codec/data-converter';
import { workerTelemetry, type WorkerTelemetry } from '../lib/worker-telemetry';
import { ActivityFailureInterceptor } from './activity-failure-interceptor';

/** `.ts` when run from source through tsx, `.js` when run from the compiled `dist/`. */
const SOURCE_EXTENSION = extname(__filename);

export const WORKFLOWS_PATH = join(__dirname, '..', 'workflows', `index${SOURCE_EXTENSION}`);

/** `npm run build` writes the bundle here (local/build/build.ts): `dist/workflow-bundle.js` beside `dist/workers/`. */
export const WORKFLOW_BUNDLE_FILE = 'workflow-bundle.js';
const PREBUILT_WORKFLOW_BUNDLE = join(__dirname, '..', WORKFLOW_BUNDLE_FILE);

/**
 * Workflow interceptors live in the bundle: trace context through workflow and activities, job ids on log lines.
 * Replay tests bundle the same list, so a change here is a workflow change (docs/operations.md).
 */
export const WORKFLOW_INTERCEPTOR_MODULES = [
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors'),
  join(__dirname, '..', 'workflows', `log-attributes-interceptor${SOURCE_EXTENSION}`),
];

/** What a test adds to the workers' bundle: test/replay swaps a schema file, or alters a workflow type's start. */
export interface BundleExtras {
  /** Webpack plugins, on top of the workers' bundle options. */
  plugins?: WebpackPlugins;
  /** Workflow interceptor modules, after the workers' own. */
  interceptorModules?: string[];
}

/** Bundled once per process and shared by the workers of every queue (bundling takes seconds). */
export async function bundleWorkflows(workflowsPath = WORKFLOWS_PATH, extras: BundleExtras = {}): Promise<WorkflowBundle> {
  const plugins = extras.plugins ?? [];
  return bundleWorkflowCode({
    workflowsPath,
    workflowInterceptorModules: [...WORKFLOW_INTERCEPTOR_MODULES, ...(extras.interceptorModules ?? [])],
    // The workflow sandbox converts its own failures (a failed job): with their messages encoded, like every process.
    failureConverterPath: FAILURE_CONVERTER_PATH,
    logger: quietBundlerLogger,
    webpackConfigHook: (config) => leanWorkflowModules({ ...config, plugins: [...(config.plugins ?? []), ...plugins] }),
  });
}

type WebpackConfig = Parameters<NonNullable<BundleOptions['webpackConfigHook']>>[0];
export type WebpackPlugins = NonNullable<WebpackConfig['plugins']>;

/**
 * Every workflow runs the bundle's module code afresh (the SDK keeps one module cache per workflow, so workflows
 * share no state), so a module the bundle needlessly includes costs CPU on every job. The SDK bundles in development
 * mode, which includes every module a package re-exports; marking used exports lets webpack skip the modules a
 * side-effect-free package (OpenTelemetry, TypeBox) re-exports but no workflow uses, and scope hoisting joins the
 * rest, so fewer module functions run per workflow. The code itself is not changed, so replay is not affected.
 */
const leanWorkflowModules: NonNullable<BundleOptions['webpackConfigHook']> = (config) => ({
  ...config,
  optimization: { ...config.optimization, usedExports: true, sideEffects: true, concatenateModules: true },
});

/**
 * What a worker process runs: the bundle `npm run build` made (production: no webpack at start, and every pod runs
 * the very code that was built and tested), else a bundle made now (development from source).
 */
export async function workflowBundleForProcess(prebuilt = PREBUILT_WORKFLOW_BUNDLE): Promise<WorkflowBundleOption> {
  return existsSync(prebuilt) ? { codePath: prebuilt } : bundleWorkflows();
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
  workflowBundle: WorkflowBundleOption;
  priorities?: Priority[];
  /** Metrics and tracing; without it the workers still register the sinks the workflows call. */
  telemetry?: WorkerTelemetry;
  /** Activity slots per queue, paced by the token budget (gateway/gateway-from-config.ts); else a fixed count. */
  activitySlots?: (priority: Priority) => SlotSupplier<ActivitySlotInfo>;
  /** The build this worker reports, and whether jobs are pinned to it (workers/worker-deployment.ts). */
  deployment?: WorkerDeploymentOptions;
}

/** Activity slots of the batch lane's own queue: its activities are I/O-bound, each touching every entry of a batch. */
const BATCH_LANE_ACTIVITY_SLOTS = 8;

/**
 * One Worker per priority queue this process serves; each polls only its own queue. A process that serves bulk
 * with the batch lane on also serves the lane's own queue, its collectors, batch workflows and their activities
 * (common/task-queues.ts says why it has one).
 */
export async function createWorkers(options: CreateWorkersOptions): Promise<Worker[]> {
  const activities = createActivities(options.deps);
  const priorities = options.priorities ?? options.config.worker.priorities;
  const telemetry = options.telemetry ?? workerTelemetry();
  const workerOf = (taskQueue: string, slots: Partial<WorkerOptions>) =>
    Worker.create({
      connection: options.connection,
      namespace: options.config.temporal.namespace,
      taskQueue,
      workflowBundle: options.workflowBundle,
      dataConverter: dataConverterFor(options.config.temporal),
      activities,
      interceptors: {
        activity: [...telemetry.activityInterceptors, () => ({ inbound: new ActivityFailureInterceptor() })],
      },
      sinks: telemetry.sinks,
      ...slots,
      ...(options.config.worker.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: options.config.worker.maxCachedWorkflows } : {}),
      workflowTaskPollerBehavior: { type: 'simple-maximum', maximum: workflowTaskPolls(options.config.worker) },
      shutdownGraceTime: options.config.worker.shutdownGraceMs,
      ...(options.deployment ? { workerDeploymentOptions: options.deployment } : {}),
    });
  const prefix = options.config.temporal.taskQueuePrefix;
  const laneSlots = {
    maxConcurrentActivityTaskExecutions: BATCH_LANE_ACTIVITY_SLOTS,
    maxConcurrentWorkflowTaskExecutions: options.config.worker.maxConcurrentWorkflowTasks,
  };
  const servesLane = options.deps.batchLane !== undefined && priorities.includes('bulk');
  return Promise.all([
    ...(servesLane ? [workerOf(batchLaneTaskQueue(prefix), laneSlots)] : []),
    ...priorities.map((priority) => workerOf(taskQueueFor(priority, prefix), slotOptions(options, priority))),
  ]);
}

/** The SDK takes either slot counts or a tuner; the tuner keeps its defaults for everything but activities. */
function slotOptions(options: CreateWorkersOptions, priority: Priority): Partial<WorkerOptions> {
  const workflowTasks = options.config.worker.maxConcurrentWorkflowTasks;
  if (!options.activitySlots) {
    return {
      maxConcurrentActivityTaskExecutions: options.config.worker.maxConcurrentActivities,
      maxConcurrentWorkflowTaskExecutions: workflowTasks,
    };
  }
  return {
    tuner: {
      activityTaskSlotSupplier: options.activitySlots(priority),
      workflowTaskSlotSupplier: { type: 'fixed-size', numSlots: workflowTasks },
      localActivityTaskSlotSupplier: { type: 'fixed-size', numSlots: 100 },
      nexusTaskSlotSupplier: { type: 'fixed-size', numSlots: 100 },
    },
  };
}
