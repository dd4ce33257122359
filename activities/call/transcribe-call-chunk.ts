import { Context } from '@temporalio/activity';
import { basename } from 'node:path';
import type { Usage } from '../../common/job';
import type { CallSegment } from '../../common/job-types/call/transcript';
import type { SpeechGateway } from '../../gateway/speech/transcription-call';
import type { ObjectStore } from '../../lib/object-store';
import { withHeartbeats } from '../heartbeat';
import type { TranscribeCallChunkInput, TranscribeCallChunkResult } from './contracts';
import { callObjectKeys } from './object-keys';

export interface TranscribeCallChunkDeps {
  store: ObjectStore;
  speech: SpeechGateway;
}

/** A chunk's transcript as stored: the provider's segments, timed from the chunk's start, and what it cost. */
export interface StoredChunkTranscript {
  segments: CallSegment[];
  text: string;
  language?: string;
  model: string;
  audioSeconds: number;
  costUsd: number;
}

/**
 * One chunk through the speech gateway (the only caller of SpeechGateway.transcribe), its transcript written to S3
 * before the activity reports: an attempt whose completion was lost (a killed worker) finds the transcript there and
 * pays the provider nothing again.
 */
export function createTranscribeCallChunk(deps: TranscribeCallChunkDeps) {
  return async function transcribeCallChunk(input: TranscribeCallChunkInput): Promise<TranscribeCallChunkResult> {
    const { attempt } = Context.current().info;
    const transcriptKey = callObjectKeys.chunkTranscript(input.chunk.key);
    if (await deps.store.exists(transcriptKey)) {
      const stored = JSON.parse((await deps.store.getBytes(transcriptKey)).toString('utf8')) as StoredChunkTranscript;
      // Only an attempt whose result never reached the workflow leaves a transcript behind: its bill is counted now.
      return { transcriptKey, segments: stored.segments.length, audioSeconds: stored.audioSeconds, usage: usageOf(stored.costUsd), reused: true, attempt };
    }
    const audio = await deps.store.getBytes(input.chunk.key);
    const result = await withHeartbeats((signal) =>
      deps.speech.transcribe({
        jobId: input.jobId,
        tenantId: input.tenantId,
        priority: input.priority,
        audio,
        filename: basename(input.chunk.key),
        durationSeconds: input.chunk.end - input.chunk.start,
        signal,
      }),
    );
    const stored: StoredChunkTranscript = {
      segments: result.segments,
      text: result.text,
      ...(result.language ? { language: result.language } : {}),
      model: result.model,
      audioSeconds: result.usage.audioSeconds,
      costUsd: result.usage.costUsd,
    };
    await deps.store.put(transcriptKey, JSON.stringify(stored), { contentType: 'application/json' });
    return { transcriptKey, segments: result.segments.length, audioSeconds: result.usage.audioSeconds, usage: usageOf(result.usage.costUsd), reused: false, attempt };
  };
}

/** A transcription in the job's usage: one provider call and its price per audio minute; no tokens. */
const usageOf = (costUsd: number): Usage => ({ inputTokens: 0, outputTokens: 0, costUsd, calls: 1 });
