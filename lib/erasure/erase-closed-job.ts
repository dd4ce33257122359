import type { Client } from '@temporalio/client';
import type { JobErasure } from '../../common/api-contract/erasure';
import type { JobTypeDefinition } from '../../common/job-types/job-type';
import type { ObjectStore } from '../object-store';
import { deleteJobProviderFiles, type ProviderFileRemover } from '../provider-files/job-provider-files';
import { deleteJobSpeechRecords, type SpeechTranscriptRemover } from '../speech/job-speech-records';
import { erasureMarks } from './erasure-marks';
import { type Execution, isNotFound, jobFootprint } from './job-executions';
import { type ContentMemo, jobObjects } from './job-objects';

/** The server deletes a closed execution asynchronously (erasure-marks.ts); the erasure waits this long to clear the mark. */
const GONE_WAIT_MS = 3_000;
const GONE_POLL_MS = 200;

export interface ClosedJob {
  tenantId: string;
  jobId: string;
  runId: string;
  definition: JobTypeDefinition | undefined;
  memo: ContentMemo;
  /** Why its leftovers are terminated, as the Web UI shows it (an erasure request, the tenant's retention). */
  reason: string;
}

/**
 * Deletes every object a job wrote and every execution of it and of its children; the job's own run must be
 * closed (DELETE /jobs/:id closes it first, the retention sweep takes closed jobs only). Objects go before
 * executions: the executions are how the objects are found, so an erasure that fails half-way is finished by
 * running it again. Shared by `DELETE /jobs/:id` (api/jobs/erase-job.ts) and the retention sweep
 * (activities/retention/).
 */
export async function eraseClosedJob(
  deps: { client: Client; store: ObjectStore; providerFiles?: ProviderFileRemover; speechTranscripts?: SpeechTranscriptRemover },
  job: ClosedJob,
): Promise<JobErasure> {
  const { client, store } = deps;
  const marks = erasureMarks(store);
  const footprint = await jobFootprint(client, { workflowId: job.jobId, runId: job.runId });
  // What still runs (a chunk group, an abandoned webhook delivery) could write after the sweep.
  await Promise.all(footprint.executions.map((execution) => terminate(client, execution, job.reason)));
  // The scans it uploaded to the provider are its data too; their records go with them, so this comes first.
  if (deps.providerFiles) await deleteJobProviderFiles({ store, files: deps.providerFiles }, job);
  // So are the transcripts the speech provider keeps of a call; the callback records name them, so they go after.
  if (deps.speechTranscripts) await deleteJobSpeechRecords({ store, transcripts: deps.speechTranscripts }, job);
  const objects = await jobObjects({ ...deps, marks }, {
    tenantId: job.tenantId,
    jobId: job.jobId,
    definition: job.definition,
    memo: job.memo,
    customIds: footprint.customIds,
  });
  await store.deleteMany(objects.erasable);
  let executions = 0;
  for (const execution of footprint.executions) if (await deleteExecution(client, execution)) executions++;
  // Written only once every delete was accepted: a mark over executions that remain would make a retry a 404.
  const runIds = footprint.executions.filter((execution) => execution.workflowId === job.jobId).map((execution) => execution.runId);
  await marks.mark(job.tenantId, job.jobId, runIds);
  if (await untilGone(client, job.jobId)) await marks.clear(job.tenantId, job.jobId);
  return { jobId: job.jobId, erased: { objects: objects.erasable.length, executions }, kept: { sharedObjects: objects.shared.length } };
}

export async function terminate(client: Client, { workflowId, runId }: Execution, reason: string): Promise<void> {
  await client.workflow.getHandle(workflowId, runId).terminate(reason).catch(ignoreGone);
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
export function ignoreGone(error: unknown): void {
  if (isNotFound(error)) return;
  if (/already completed|already finished|not found/i.test(String((error as Error).message))) return;
  throw error;
}
