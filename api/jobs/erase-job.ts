import type { Client } from '@temporalio/client';
import type { JobErasure } from '../../common/api-contract/erasure';
import { jobTypeNamed } from '../../common/job-types/registry';
import { erasureMarks } from './erasure-marks';
import { type Execution, isNotFound, jobFootprint } from './job-executions';
import { jobObjects } from './job-objects';
import type { JobReader } from './job-reader';
import type { JobsDeps } from './jobs-deps';

/** A cancelled job gets this long to close on its own (its activities hear of it at their next heartbeat, every 2 s). */
const CLOSE_WAIT_MS = 3_000;
/** The server deletes a closed execution asynchronously (erasure-marks.ts); the answer waits this long to clear the mark. */
const GONE_WAIT_MS = 3_000;
const GONE_POLL_MS = 200;

/**
 * `DELETE /jobs/:id`: cancels the job if it runs, then deletes every object it wrote and every execution of it and
 * of its children. Objects go before executions: the executions are how the objects are found, so an erasure that
 * fails half-way is finished by sending it again.
 */
export function createEraseJob(deps: Pick<JobsDeps, 'client' | 'store'>, reader: JobReader) {
  const { client, store } = deps;
  const marks = erasureMarks(store);

  return async function eraseJob(tenantId: string, jobId: string): Promise<JobErasure> {
    const description = await reader.getOwnedJob(tenantId, jobId);
    const job = { workflowId: jobId, runId: description.runId };
    // Closed before its histories are read, so it cannot start a child the erasure would not know of.
    if (description.status.name === 'RUNNING') await cancelAndWait(client, job);
    const footprint = await jobFootprint(client, job);
    // What still runs (a chunk group, an abandoned webhook delivery) could write after the sweep.
    await Promise.all(footprint.executions.map((execution) => terminate(client, execution)));
    const objects = await jobObjects({ ...deps, marks }, {
      tenantId,
      jobId,
      definition: jobTypeNamed(reader.baseOf(description).type),
      memo: reader.memoOf(description),
      customIds: footprint.customIds,
    });
    await store.deleteMany(objects.erasable);
    let executions = 0;
    for (const execution of footprint.executions) if (await deleteExecution(client, execution)) executions++;
    // Written only once every delete was accepted: a mark over executions that remain would make a retry a 404.
    const runIds = footprint.executions.filter((execution) => execution.workflowId === jobId).map((execution) => execution.runId);
    await marks.mark(tenantId, jobId, runIds);
    if (await untilGone(client, jobId)) await marks.clear(tenantId, jobId);
    return { jobId, erased: { objects: objects.erasable.length, executions }, kept: { sharedObjects: objects.shared.length } };
  };
}

async function cancelAndWait(client: Client, job: Execution): Promise<void> {
  const handle = client.workflow.getHandle(job.workflowId, job.runId);
  await handle.cancel().catch(ignoreGone);
  await client.withDeadline(Date.now() + CLOSE_WAIT_MS, () => handle.result()).catch(() => undefined);
  await terminate(client, job);
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
    if (isNotFound(error)) return false;
    throw error;
  }
}

async function untilGone(client: Client, jobId: string): Promise<boolean> {
  const until = Date.now() + GONE_WAIT_MS;
  while (Date.now() < until) {
    try {
      await client.workflow.getHandle(jobId).describe();
    } catch (error) {
      if (!isNotFound(error)) throw error;
      // The mark also hides the job from the shared-upload check, which reads visibility: it goes after both.
      if ((await client.workflow.count(`WorkflowId = '${jobId}'`)).count === 0) return true;
    }
    await new Promise((resolve) => setTimeout(resolve, GONE_POLL_MS));
  }
  return false;
}

/** A closed or already deleted execution is what an erasure wants; anything else is a failure. */
function ignoreGone(error: unknown): void {
  if (isNotFound(error)) return;
  if (/already completed|already finished|not found/i.test(String((error as Error).message))) return;
  throw error;
}
