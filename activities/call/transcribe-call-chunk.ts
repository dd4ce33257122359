import { Context } from '@temporalio/activity';
import { basename } from 'node:path';
import type { Usage } from '../../common/job';
import type { CallChunk } from '../../common/job-types/call/call-job';
import type { CallSegment } from '../../common/job-types/call/transcript';
import type { SpeechGateway, TranscribeRequest, TranscribeResult } from '../../gateway/speech/transcription-call';
import { type ObjectStore, readJsonIfPresent } from '../../lib/object-store';
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

/** A chunk as either speech door takes it: its audio from S3, whose it is, and the seconds the budget reserves. */
export async function chunkTranscribeRequest(store: ObjectStore, input: TranscribeCallChunkInput): Promise<TranscribeRequest> {
  return {
    jobId: input.jobId,
    tenantId: input.tenantId,
    priority: input.priority,
    audio: await store.getBytes(input.chunk.key),
    filename: basename(input.chunk.key),
    durationSeconds: input.chunk.end - input.chunk.start,
  };
}

/**
 * One chunk through the speech gateway (the only caller of SpeechGateway.transcribe), its transcript written to S3
 * before the activity reports: an attempt whose completion was lost (a killed worker) finds the transcript there and
 * pays the provider nothing again.
 */
export function createTranscribeCallChunk(deps: TranscribeCallChunkDeps) {
  return async function transcribeCallChunk(input: TranscribeCallChunkInput): Promise<TranscribeCallChunkResult> {
    const { attempt } = Context.current().info;
    const reused = await reusedChunkTranscript(deps.store, input.chunk, attempt);
    if (reused) return reused;
    const request = await chunkTranscribeRequest(deps.store, input);
    const result = await withHeartbeats((signal) => deps.speech.transcribe({ ...request, signal }));
    return storeChunkTranscript(deps.store, input.chunk, result, attempt);
  };
}

/**
 * The chunk's transcript an earlier attempt stored, as this step's result; undefined when there is none. Only an
 * attempt whose result never reached the workflow leaves a transcript behind: its bill is counted now.
 */
export async function reusedChunkTranscript(store: ObjectStore, chunk: CallChunk, attempt: number): Promise<TranscribeCallChunkResult | undefined> {
  const transcriptKey = callObjectKeys.chunkTranscript(chunk.key);
  const stored = await readJsonIfPresent<StoredChunkTranscript>(store, transcriptKey);
  if (!stored) return undefined;
  return { transcriptKey, segments: stored.segments.length, audioSeconds: stored.audioSeconds, usage: usageOf(stored.costUsd), reused: true, attempt };
}

/** The provider's transcript of a chunk written to S3 (StoredChunkTranscript, whichever shape answered), as the step's result. */
export async function storeChunkTranscript(store: ObjectStore, chunk: CallChunk, result: TranscribeResult, attempt: number): Promise<TranscribeCallChunkResult> {
  const transcriptKey = callObjectKeys.chunkTranscript(chunk.key);
  const stored: StoredChunkTranscript = {
    segments: result.segments,
    text: result.text,
    ...(result.language ? { language: result.language } : {}),
    model: result.model,
    audioSeconds: result.usage.audioSeconds,
    costUsd: result.usage.costUsd,
  };
  await store.put(transcriptKey, JSON.stringify(stored), { contentType: 'application/json' });
  return { transcriptKey, segments: result.segments.length, audioSeconds: result.usage.audioSeconds, usage: usageOf(result.usage.costUsd), reused: false, attempt };
}

/** A transcription in the job's usage: one provider call and its price per audio minute; no tokens. */
const usageOf = (costUsd: number): Usage => ({ inputTokens: 0, outputTokens: 0, costUsd, calls: 1 });
