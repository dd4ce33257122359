import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { JobErasure } from '../../common/api-contract/erasure';
import { jobTypeNamed } from '../../common/job-types/registry';
import { type Execution, jobFootprint } from './job-executions';
import { jobObjects } from './job-objects';
import type { JobReader } from './job-reader';
import type { JobsDeps } from './jobs-deps';

/** A cancelled job gets this long to close on its own (its activities hear of it at their next heartbeat, every 2 s). */
const CLOSE_WAIT_MS = 4_000;
/** The server deletes an execution asynchronously; the answer waits this long for the job to be gone from `GET`. */
const GONE_WAIT_MS = 5_000;
const GONE_POLL_MS = 200;
/** gRPC's status code for an execution the server no longer has. */
const GRPC_NOT_FOUND = 5;

/**
 * `DELETE /jobs/:id`: cancels the job if it runs, then deletes every object it wrote and every execution of it and
 * of its children. Objects go before executions: the executions are how the objects are found, so an erasure that
 * fails half-way is finished by sending it again.
 */
export function createEraseJob(deps: Pick<JobsDeps, 'client' | 'store'>, reader: JobReader) {
  const { client, store } = deps;

  return async function eraseJob(tenantId: string, jobId: string): Promise<JobErasure> {
    const description = await reader.getOwnedJob(tenantId, jobId);
    if (description.status.name === 'RUNNING') await cancelAndWait(client, jobId);
    const footprint = await jobFootprint(client, { workflowId: jobId, runId: description.runId });
    // What still runs (a job that did not close in time, an abandoned webhook delivery) could write after the sweep.
    await Promise.all(footprint.executions.map((execution) => terminate(client, execution)));
    const objects = await jobObjects(deps, {
      tenantId,
      jobId,
      definition: jobTypeNamed(reader.baseOf(description).type),
      memo: reader.memoOf(description),
      customIds: footprint.customIds,
    });
    await store.deleteMany(objects.erasable);
    let executions = 0;
    for (const execution of footprint.executions) if (await deleteExecution(client, execution)) executions++;
    await untilGone(client, jobId);
    return { jobId, erased: { objects: objects.erasable.length, executions }, kept: { sharedObjects: objects.shared.length } };
  };
}

async function cancelAndWait(client: Client, jobId: string): Promise<void> {
  const handle = client.workflow.getHandle(jobId);
  await handle.cancel().catch(ignoreGone);
  await client.withDeadline(Date.now() + CLOSE_WAIT_MS, () => handle.result()).catch(() => undefined);
}

async function terminate(client: Client, { workflowId, runId }: Execution): Promise<void> {
  await client.workflow.getHandle(workflowId, runId).terminate('erased on request (DELETE /jobs/:id)').catch(ignoreGone);
}

/** True when this request deleted it; false when it was gone already (a concurrent erasure). */
async function deleteExecution(client: Client, { workflowId, runId }: Execution): Promise<boolean> {
  try {
    await client.workflowService.deleteWorkflowExecution({ namespace: client.options.namespace, workflowExecution: { workflowId, runId } });
    return true;
  } catch (error) {
    if ((error as { code?: number }).code === GRPC_NOT_FOUND) return false;
    throw error;
  }
}

async function untilGone(client: Client, jobId: string): Promise<void> {
  const until = Date.now() + GONE_WAIT_MS;
  while (Date.now() < until) {
    try {
      await client.workflow.getHandle(jobId).describe();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return;
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, GONE_POLL_MS));
  }
}

/** A closed or already deleted execution is what an erasure wants; anything else is a failure. */
function ignoreGone(error: unknown): void {
  if (error instanceof WorkflowNotFoundError) return;
  if (/already completed|already finished|not found/i.test(String((error as Error).message))) return;
  throw error;
}
