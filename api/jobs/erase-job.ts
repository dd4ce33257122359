import type { Client } from '@temporalio/client';
import type { JobErasure } from '../../common/api-contract/erasure';
import { jobTypeNamed } from '../../common/job-types/registry';
import { eraseClosedJob, ignoreGone, terminate } from '../../lib/erasure/erase-closed-job';
import type { Execution } from '../../lib/erasure/job-executions';
import type { SpeechTranscriptRemover } from '../../lib/speech/job-speech-records';
import { ApiError } from '../api-error';
import type { JobReader } from './job-reader';
import type { JobsDeps } from './jobs-deps';

/** A cancelled job gets this long to close on its own (its activities hear of it at their next heartbeat, every 2 s). */
const CLOSE_WAIT_MS = 3_000;
const REASON = 'erased on request (DELETE /jobs/:id)';
/** How soon a client may send the DELETE again after the speech provider failed to delete a transcript. */
const SPEECH_RETRY_AFTER_SECONDS = 5;

/**
 * `DELETE /jobs/:id`: cancels the job if it runs, then deletes every object it wrote and every execution of it and
 * of its children (lib/erasure/erase-closed-job.ts).
 */
export function createEraseJob(deps: Pick<JobsDeps, 'client' | 'store' | 'providerFiles' | 'speechTranscripts'>, reader: JobReader) {
  const { client } = deps;
  const speechTranscripts = deps.speechTranscripts && answeringUnavailable(deps.speechTranscripts);

  return async function eraseJob(tenantId: string, jobId: string): Promise<JobErasure> {
    const description = await reader.getOwnedJob(tenantId, jobId);
    const job = { workflowId: jobId, runId: description.runId };
    // Closed before its histories are read, so it cannot start a child the erasure would not know of.
    if (description.status.name === 'RUNNING') await cancelAndWait(client, job);
    return eraseClosedJob({ ...deps, ...(speechTranscripts ? { speechTranscripts } : {}) }, {
      tenantId,
      jobId,
      runId: description.runId,
      definition: jobTypeNamed(reader.baseOf(description).type),
      memo: reader.memoOf(description),
      reason: REASON,
    });
  };
}

async function cancelAndWait(client: Client, job: Execution): Promise<void> {
  const handle = client.workflow.getHandle(job.workflowId, job.runId);
  await handle.cancel().catch(ignoreGone);
  await client.withDeadline(Date.now() + CLOSE_WAIT_MS, () => handle.result()).catch(() => undefined);
  await terminate(client, job, REASON);
}

/**
 * The speech provider down or refusing: the documented 503 with Retry-After, not a 500. Sending the DELETE again
 * finishes the erasure: what was deleted is skipped, and the records naming the rest were kept.
 */
export function answeringUnavailable(remover: SpeechTranscriptRemover): SpeechTranscriptRemover {
  return {
    async deleteTranscript(transcriptId) {
      try {
        await remover.deleteTranscript(transcriptId);
      } catch (error) {
        throw new ApiError(503, 'speech_provider_unavailable', `the speech provider did not delete a transcript of this job (${(error as Error).message}); send the DELETE again`, {
          retryAfterSeconds: SPEECH_RETRY_AFTER_SECONDS,
        });
      }
    },
  };
}
