import { type Static, Type } from '@sinclair/typebox';
import { closed, count } from '../../api-contract/schema-kit';
import { defineJobType, type FileKind } from '../job-type';
import { CallSummary } from './call-summary';
import { callObjectPrefix } from './object-prefix';

const seconds = Type.Number({ minimum: 0 });

/** Where a call job leaves its transcript (S3 keys in the deployment's bucket) and what the model made of it. */
export const CallResult = closed({
  durationSeconds: seconds,
  chunks: count(),
  segments: count(),
  transcriptKey: Type.String({ description: 'JSON: durationSeconds, text, segments [{start, end, text, speaker?, confidence?}] in seconds from the call’s start.' }),
  vttKey: Type.String({ description: 'The same segments as WebVTT.' }),
  audioSecondsBilled: seconds,
  summary: CallSummary,
  summarizedBy: Type.Union([Type.Literal('model'), Type.Literal('reviewer')]),
});
export type CallResult = Static<typeof CallResult>;

/** Every recording format the door sniffs; each held to the same size and duration limits. */
const audio = (contentType: FileKind['contentType']): FileKind => ({
  contentType,
  maxBytes: { setting: 'CALL_MAX_UPLOAD_BYTES' },
  maxDurationSeconds: { setting: 'CALL_MAX_DURATION_SECONDS' },
});

/**
 * A recorded call (up to CALL_MAX_DURATION_SECONDS) cut at silences into chunks, each transcribed through the
 * speech gateway, a bounded number at a time; the chunks' transcripts joined into one timed transcript (JSON and
 * WebVTT in S3), then summarised by the model with action items and the outcome. A summary that fails its schema
 * goes to a reviewer, who edits it beside the audio (docs/job-types.md).
 */
export const callJobType = defineJobType({
  name: 'call.transcribe',
  summary: 'A recorded call (WAV, MP3, M4A/AAC, OGG/Opus or FLAC) transcribed with timings and summarised with action items and outcome.',
  input: { kind: 'file', accepts: [audio('audio/wav'), audio('audio/mpeg'), audio('audio/mp4'), audio('audio/aac'), audio('audio/ogg'), audio('audio/flac')] },
  workflowType: 'callTranscribeWorkflow',
  priorities: ['interactive', 'bulk'],
  // Minutes of audio and a dozen provider calls: nobody waits on it in the interactive sense unless they ask.
  defaultPriority: 'bulk',
  steps: ['splitCallAudio', 'transcribeCallChunk', 'joinCallTranscript', 'summarizeCall'],
  result: CallResult,
  proposal: CallSummary,
  // No score decides: only a summary that fails its schema goes to a person (as any type's schema failure may).
  review: { kind: 'none' },
  webhook: { includesResult: true },
  reviewer: {
    title: 'Call',
    showsDocument: true,
    editable: { component: 'CallSummary', schema: CallSummary, startsFrom: 'proposal' },
    sections: [],
  },
  objects: { ownPrefix: (tenantId, jobId) => `${callObjectPrefix(tenantId, jobId)}/` },
});
