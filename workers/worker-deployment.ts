import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { WorkerDeploymentOptions, WorkflowBundleOption } from '@temporalio/worker';
import type { Config } from '../lib/config';

/**
 * The build id when WORKER_BUILD_ID is not set: a hash of the workflow bundle the worker runs. It changes exactly
 * when workflow code (or an interceptor bundled with it) changes, so every pod of one build reports the same
 * version, and a deploy that only touches activities or the API keeps it (no new version to roll out).
 */
export async function derivedBuildId(bundle: WorkflowBundleOption): Promise<string> {
  const code = 'code' in bundle ? bundle.code : await readFile(bundle.codePath, 'utf8');
  return `wf-${createHash('sha256').update(code).digest('hex').slice(0, 16)}`;
}

/**
 * Worker Deployment Versioning (docs/operations.md#deploying-a-workflow-change): a job is PINNED to the build that
 * started it, so a job waiting 48 hours for a reviewer finishes on the code it began with while new jobs go to the
 * deployment's current version. Without versioning the worker still reports its version, for the Web UI.
 */
export async function workerDeploymentOptions(
  config: Pick<Config['worker'], 'versioning' | 'deploymentName' | 'buildId'>,
  bundle: WorkflowBundleOption,
): Promise<WorkerDeploymentOptions> {
  const version = { deploymentName: config.deploymentName, buildId: config.buildId ?? (await derivedBuildId(bundle)) };
  return config.versioning
    ? { version, useWorkerVersioning: true, defaultVersioningBehavior: 'PINNED' }
    : { version, useWorkerVersioning: false };
}
