import type { Job } from '../../common/api-contract/job';
import { isTerminal } from '../../common/job';
import { apiErrors } from '../api-error';
import type { JobReader } from './job-reader';
import type { JobsDeps } from './jobs-deps';

/**
 * How long a cancel waits for the job to close before answering: an activity learns of the cancel at its next
 * heartbeat (every 2 s), so most jobs answer `cancelled` at once; a slower one answers 202 and closes soon after.
 */
const CANCEL_WAIT_MS = 5_000;

export interface CancelJobResult {
  job: Job;
  /** False while the job is still stopping (202); the job's status says how it ended once it closed. */
  closed: boolean;
}

/** `POST /jobs/:id/cancel`: any unfinished job of any type; a cancelled one answers the same again, a finished one 409. */
export function createCancelJob(deps: Pick<JobsDeps, 'client'>, reader: JobReader) {
  const { client } = deps;

  return async function cancelJob(tenantId: string, jobId: string): Promise<CancelJobResult> {
    const description = await reader.getOwnedJob(tenantId, jobId);
    const { status } = reader.baseOf(description);
    if (status === 'cancelled') return { job: await reader.view(description), closed: description.status.name !== 'RUNNING' };
    if (description.status.name !== 'RUNNING' || isTerminal(status)) throw apiErrors.jobFinished(status);
    const handle = client.workflow.getHandle(jobId);
    try {
      await handle.cancel();
    } catch (error) {
      // A second request while the first is being handled, or a job that closed meanwhile: the answer below tells.
      if (!/already|not found|completed/i.test(String((error as Error).message))) throw error;
    }
    await client.withDeadline(Date.now() + CANCEL_WAIT_MS, () => handle.result()).catch(() => undefined);
    const after = await reader.getOwnedJob(tenantId, jobId);
    return { job: await reader.view(after), closed: after.status.name !== 'RUNNING' };
  };
}
