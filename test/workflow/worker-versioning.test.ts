import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import type { InvoiceJobInput } from '../../common/job-types/invoice/invoice-job';
import { submitReviewUpdate } from '../../common/messages';
import { ActivityFailureInterceptor } from '../../workers/activity-failure-interceptor';
import { workerDeploymentOptions } from '../../workers/worker-deployment';
import type { invoiceWorkflow } from '../../workflows';
import { fakeActivities, sampleInvoice, validExtraction } from '../support/fake-activities';
import { createTemporalTestEnv } from '../support/temporal-env';
import { quietTemporalRuntime, sharedBundle, waitForStatus } from '../support/workflow-harness';
import { testDataConverter } from '../support/test-codec';

type Job = WorkflowHandle<typeof invoiceWorkflow>;

/**
 * A deploy with Worker Deployment Versioning (docs/operations.md#deploying-a-workflow-change): two builds of the
 * worker poll the same task queue; a job started on v1 stays on v1 after v2 is made current, new jobs go to v2.
 * Each build has its own fake activities, so the ledger post shows which build ran the job's last steps.
 */
describe('worker deployment versions', () => {
  let env: TestWorkflowEnvironment;
  let bundle: WorkflowBundle;
  beforeAll(async () => {
    quietTemporalRuntime();
    env = await createTemporalTestEnv();
    bundle = await sharedBundle();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  test('when v2 becomes current while a v1 job waits for review, then that job finishes on v1 and new jobs run on v2', async () => {
    const namespace = env.namespace ?? 'default';
    const deploymentName = `test-${randomUUID().slice(0, 8)}`;
    const taskQueue = `test-${randomUUID()}`;
    const lowConfidence = () => fakeActivities({ extractions: [validExtraction(sampleInvoice, 0.5)] });
    const builds = { v1: lowConfidence(), v2: lowConfidence() };

    const startWorker = async (buildId: 'v1' | 'v2') => {
      const worker = await Worker.create({
        connection: env.nativeConnection,
        namespace,
        taskQueue,
        workflowBundle: bundle,
        dataConverter: testDataConverter(),
        activities: builds[buildId].activities,
        interceptors: { activity: [() => ({ inbound: new ActivityFailureInterceptor() })] },
        workerDeploymentOptions: await workerDeploymentOptions({ versioning: true, deploymentName, buildId }, bundle),
      });
      return { worker, running: worker.run() };
    };
    const setCurrent = (buildId: string) =>
      // The version exists once the server has seen its worker poll; until then the call is refused.
      eventually(() => env.client.workflowService.setWorkerDeploymentCurrentVersion({ namespace, deploymentName, buildId }));
    const startJob = (): Promise<Job> => {
      const input = jobInput();
      return env.client.workflow.start('invoiceWorkflow', { taskQueue, workflowId: input.jobId, args: [input] });
    };
    const pinnedBuildOf = async (job: Job) => {
      const info = (await job.describe()).raw.workflowExecutionInfo?.versioningInfo;
      assert.equal(info?.behavior, temporal.api.enums.v1.VersioningBehavior.VERSIONING_BEHAVIOR_PINNED);
      return info?.deploymentVersion?.buildId;
    };
    const approve = async (job: Job) => {
      await job.executeUpdate(submitReviewUpdate, { args: [{ decision: 'approve', fields: sampleInvoice, reviewer: 'rita' }] });
      return job.result();
    };

    const v1 = await startWorker('v1');
    const v2 = await startWorker('v2');
    try {
      await setCurrent('v1');
      const oldJob = await startJob();
      await waitForStatus(oldJob, 'awaiting_review');
      assert.equal(await pinnedBuildOf(oldJob), 'v1');

      await setCurrent('v2');
      const newJob = await startJob();
      await waitForStatus(newJob, 'awaiting_review');
      assert.equal(await pinnedBuildOf(newJob), 'v2');

      assert.equal((await approve(oldJob)).status, 'posted');
      assert.equal((await approve(newJob)).status, 'posted');
      assert.equal(await pinnedBuildOf(oldJob), 'v1', 'the old job was never moved');
      assert.equal(builds.v1.calls.postInvoiceToLedger, 1, "the old job's last step ran on v1");
      assert.equal(builds.v2.calls.postInvoiceToLedger, 1, "the new job's last step ran on v2");
      assert.equal(builds.v1.calls.extractText, 1);
      assert.equal(builds.v2.calls.extractText, 1);
    } finally {
      v1.worker.shutdown();
      v2.worker.shutdown();
      await Promise.all([v1.running, v2.running]);
    }
  });
});

function jobInput(): InvoiceJobInput {
  return {
    jobId: `invoice:test:${randomUUID()}`,
    tenantId: 'test',
    priority: 'interactive',
    document: { bucket: 'slowlane', key: 'inputs/test/abc', sha256: 'abc', contentType: 'application/pdf', sizeBytes: 1000, fileName: 'invoice.pdf' },
    confidenceThreshold: 0.9,
    reviewTimeoutMs: 60 * 60 * 1000,
    maxExtractionTries: 3,
    deadLetterTimeoutMs: 60 * 60 * 1000,
    submittedAt: new Date().toISOString(),
  };
}

async function eventually<T>(call: () => Promise<T>, attempts = 100): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
