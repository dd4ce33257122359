import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker, type WorkflowBundle } from '@temporalio/worker';
import type { JobActivities } from '../../activities';
import type { JsonJobInput } from '../../common/job';
import type { InvoiceJobInput } from '../../common/job-types/invoice/invoice-job';
import type { OrderScoreInput } from '../../common/job-types/order-score/order-score';
import { JobStatusKey, TenantIdKey } from '../../common/search-attributes';
import { workerTelemetry, type WorkerTelemetry } from '../../lib/worker-telemetry';
import { bundleWorkflows } from '../../workers/create-workers';
import { ActivityFailureInterceptor } from '../../workers/activity-failure-interceptor';
import type { invoiceWorkflow, orderScoreWorkflow } from '../../workflows';
import { createTemporalTestEnv } from './temporal-env';
import { testDataConverter } from './test-codec';

let bundle: Promise<WorkflowBundle> | undefined;
/** Bundling takes seconds; one bundle serves every test in the file. */
export function sharedBundle(): Promise<WorkflowBundle> {
  bundle ??= bundleWorkflows();
  return bundle;
}

/** The steps a harness worker runs: any type's, scripted; a step the workflow calls and the test left out fails. */
export type HarnessActivities = Partial<JobActivities>;

export interface WorkflowHarness {
  env: TestWorkflowEnvironment;
  /** Where the workers' sinks report: tests read the job metrics from its registry. */
  telemetry: WorkerTelemetry;
  /**
   * Runs `body` while a worker with these activities polls a fresh task queue (with the test codec unless told);
   * `taskQueue` is that queue, for workflows of other types the body starts itself.
   */
  withWorker<T>(
    activities: HarnessActivities,
    body: (start: StartJob, startOrderScore: StartOrderScore, taskQueue: string) => Promise<T>,
    options?: { dataConverter?: DataConverter },
  ): Promise<T>;
  close(): Promise<void>;
}

export type StartJob = (overrides?: Partial<InvoiceJobInput>) => Promise<WorkflowHandle<typeof invoiceWorkflow>>;
export type StartOrderScore = (
  order: OrderScoreInput,
  overrides?: Partial<JsonJobInput<OrderScoreInput>>,
) => Promise<WorkflowHandle<typeof orderScoreWorkflow>>;

let runtimeInstalled = false;
/** The SDK logs every worker state change at INFO; tests only want its warnings. */
export function quietTemporalRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({ logger: new DefaultLogger('WARN') });
}

export async function createWorkflowHarness(): Promise<WorkflowHarness> {
  quietTemporalRuntime();
  const env = await createTemporalTestEnv();
  const workflowBundle = await sharedBundle();
  const telemetry = workerTelemetry();
  return {
    env,
    telemetry,
    async withWorker(activities, body, options = {}) {
      const taskQueue = `test-${randomUUID()}`;
      const worker = await Worker.create({
        connection: env.nativeConnection,
        namespace: env.namespace ?? 'default',
        taskQueue,
        workflowBundle,
        dataConverter: options.dataConverter ?? testDataConverter(),
        activities,
        interceptors: { activity: [() => ({ inbound: new ActivityFailureInterceptor() })] },
        // The workflows report metrics and spans through sinks; here they go to a registry nobody scrapes.
        sinks: telemetry.sinks,
        // Replay every workflow task from history, so non-determinism shows up here rather than in production.
        maxCachedWorkflows: 0,
      });
      const start: StartJob = async (overrides = {}) => {
        const jobId = `invoice:test:${randomUUID()}`;
        const input: InvoiceJobInput = {
          jobId,
          tenantId: 'test',
          priority: 'interactive',
          document: {
            bucket: 'slowlane',
            key: 'inputs/test/abc',
            sha256: 'abc',
            contentType: 'application/pdf',
            sizeBytes: 1000,
            fileName: 'invoice.pdf',
          },
          confidenceThreshold: 0.9,
          reviewTimeoutMs: 60 * 60 * 1000,
          maxExtractionTries: 3,
          deadLetterTimeoutMs: 60 * 60 * 1000,
          submittedAt: new Date().toISOString(),
          ...overrides,
        };
        return env.client.workflow.start('invoiceWorkflow', {
          taskQueue,
          workflowId: input.jobId,
          args: [input],
          // As the API starts a job: operator queries (dead letters, budget waits) find it by tenant.
          typedSearchAttributes: [{ key: TenantIdKey, value: input.tenantId }],
        });
      };
      const startOrderScore: StartOrderScore = async (order, overrides = {}) => {
        const input: JsonJobInput<OrderScoreInput> = {
          jobId: `order.score:test:${randomUUID()}`,
          tenantId: 'test',
          priority: 'interactive',
          input: order,
          scoreBand: { approveBelow: 0.3, declineFrom: 0.7 },
          reviewTimeoutMs: 60 * 60 * 1000,
          deadLetterTimeoutMs: 60 * 60 * 1000,
          submittedAt: new Date().toISOString(),
          ...overrides,
        };
        return env.client.workflow.start('orderScoreWorkflow', { taskQueue, workflowId: input.jobId, args: [input] });
      };
      return worker.runUntil(body(start, startOrderScore, taskQueue));
    },
    close: () => env.teardown(),
  };
}

/** Polls the status query until the job's status is `status`; workflow tests use it to wait for awaiting_review. */
export async function waitForStatus(handle: WorkflowHandle, status: string, attempts = 200): Promise<void> {
  await pollUntil(handle, status, attempts, async () => {
    const state = await handle.query('status').catch(() => undefined);
    return (state as { status?: string } | undefined)?.status;
  });
}

/**
 * Polls the server's JobStatus search attribute (written at each change of status) until it reads `status`. No query
 * reaches the worker, whose workflow cache is empty here, so nothing makes it replay the job: for tests that count
 * what the workflow reports through sinks.
 */
export async function waitForStatusAttribute(handle: WorkflowHandle, status: string, attempts = 200): Promise<void> {
  await pollUntil(handle, status, attempts, async () => (await handle.describe()).typedSearchAttributes.get(JobStatusKey));
}

async function pollUntil(
  handle: WorkflowHandle,
  status: string,
  attempts: number,
  read: () => Promise<string | undefined>,
): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if ((await read()) === status) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`workflow ${handle.workflowId} never reached ${status}`);
}
