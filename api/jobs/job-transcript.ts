import type { CallTranscript } from '../../common/api-contract/call-transcript';
import type { CallJobState } from '../../common/job-types/call/call-job';
import { callJobType } from '../../common/job-types/call/definition';
import type { CallSegment, CallTranscript as StoredTranscript } from '../../common/job-types/call/transcript';
import { apiErrors } from '../api-error';
import { missingAs } from './job-document';
import type { JobReader } from './job-reader';
import type { JobsDeps } from './jobs-deps';

/**
 * `GET /jobs/:id/transcript`: a call's joined transcript, read from the object store by the key the job's state
 * holds from the join on (so while it awaits review too), for the reviewer page's lines beside the player.
 */
export function createReadTranscript(deps: Pick<JobsDeps, 'store'>, reader: JobReader) {
  return async function readTranscript(tenantId: string, jobId: string): Promise<CallTranscript> {
    const job = await reader.getOwnedJob(tenantId, jobId);
    const none = apiErrors.notFound(`the transcript of job ${jobId}`);
    if (job.type !== callJobType.workflowType) throw none;
    const state = (await reader.stateOf(job).catch(() => undefined)) as CallJobState | undefined;
    // A running job's state comes from its worker: until one answers, whether it has a transcript is unknown.
    if (!state && job.status.name === 'RUNNING') {
      throw apiErrors.noWorkerAnswer('the job’s transcript');
    }
    const key = state?.transcript?.key ?? state?.result?.transcriptKey;
    if (!key) throw none;
    const bytes = await deps.store.getBytes(key).catch(missingAs(none));
    const stored = JSON.parse(bytes.toString('utf8')) as StoredTranscript;
    const reviewConfidence = state?.transcript?.reviewConfidence;
    return {
      durationSeconds: stored.durationSeconds,
      segments: stored.segments.map(segmentView),
      ...(reviewConfidence !== undefined ? { reviewConfidence } : {}),
    };
  };
}

/** The stored segment's documented fields only, so a provider's extra detail never reaches the API's answer. */
function segmentView(segment: CallSegment): CallTranscript['segments'][number] {
  return {
    start: segment.start,
    end: segment.end,
    text: segment.text,
    ...(segment.speaker !== undefined ? { speaker: segment.speaker } : {}),
    ...(segment.confidence !== undefined ? { confidence: segment.confidence } : {}),
  };
}
