import { Context } from '@temporalio/activity';
import { joinChunkTranscripts, toWebVtt, transcriptConfidence, transcriptText } from '../../common/job-types/call/transcript';
import type { ObjectStore } from '../../lib/object-store';
import type { JoinCallTranscriptInput, JoinCallTranscriptResult } from './contracts';
import { callObjectKeys } from './object-keys';
import type { StoredChunkTranscript } from './transcribe-call-chunk';

/**
 * The chunks' transcripts as one, timed from the call's start, overlap heard once: JSON, WebVTT and the model's text
 * in S3; and how well the call was heard, for the workflow's review decision.
 */
export function createJoinCallTranscript(deps: { store: ObjectStore; reviewConfidence: number }) {
  return async function joinCallTranscript(input: JoinCallTranscriptInput): Promise<JoinCallTranscriptResult> {
    const { attempt } = Context.current().info;
    const chunks = await Promise.all(
      input.chunks.map(async ({ chunk, transcriptKey }) => {
        const stored = JSON.parse((await deps.store.getBytes(transcriptKey)).toString('utf8')) as StoredChunkTranscript;
        return { chunk, segments: stored.segments };
      }),
    );
    const transcript = joinChunkTranscripts(input.durationSeconds, chunks);
    const keys = {
      transcriptKey: callObjectKeys.transcript(input.tenantId, input.jobId),
      vttKey: callObjectKeys.vtt(input.tenantId, input.jobId),
      textKey: callObjectKeys.text(input.tenantId, input.jobId),
    };
    await deps.store.put(keys.transcriptKey, JSON.stringify(transcript), { contentType: 'application/json' });
    await deps.store.put(keys.vttKey, toWebVtt(transcript), { contentType: 'text/vtt; charset=utf-8' });
    await deps.store.put(keys.textKey, transcriptText(transcript), { contentType: 'text/plain; charset=utf-8' });
    const heard = transcriptConfidence(transcript.segments, deps.reviewConfidence);
    return { ...keys, segments: transcript.segments.length, ...heard, reviewConfidence: deps.reviewConfidence, attempt };
  };
}
