import type { SlowlaneError } from '../../common/errors';
import type { Priority } from '../../common/task-queues';

export interface TranscribeRequest {
  jobId: string;
  /** The tenant whose spend caps the chunk counts against (gateway/spend/); none: uncounted (benchmarks, tools). */
  tenantId?: string;
  priority: Priority;
  /** One chunk of a recording, below the provider's upload limit (SPEECH_MAX_UPLOAD_BYTES). */
  audio: Uint8Array;
  /** Its name with an extension the provider knows the format by (`chunk-0003.flac`). */
  filename: string;
  /** Read before the call (ffprobe): what the audio-seconds budget reserves. */
  durationSeconds: number;
  /** ISO-639-1 code (`en`), when known: it improves accuracy and latency. */
  language?: string;
  /** Text that came before (the previous chunk's end), so the provider keeps names and spelling across chunks. */
  prompt?: string;
  signal?: AbortSignal;
}

export interface TranscriptSegment {
  /** Seconds from the start of the chunk. */
  start: number;
  end: number;
  text: string;
  /** The provider's speaker label (`A`, `B`), when it tells speakers apart. */
  speaker?: string;
  /** 0..1, when the provider gives one. */
  confidence?: number;
}

export interface TranscribeResult {
  text: string;
  segments: TranscriptSegment[];
  /** The provider's `language` (`english`), when it says. */
  language?: string;
  durationSeconds: number;
  model: string;
  /** Seconds billed (the provider's `usage.seconds`, else the duration rounded up) and their price. */
  usage: { audioSeconds: number; costUsd: number };
}

/** The gateway's door to the speech-to-text provider: its own budget in audio seconds and in requests in flight. */
export interface SpeechGateway {
  transcribe(request: TranscribeRequest): Promise<TranscribeResult>;
}

/** Where the asynchronous provider posts when a transcript is done, and the header it sends back with the post. */
export interface SpeechCallback {
  url: string;
  authHeaderName: string;
  authHeaderValue: string;
}

/** A submitted transcript as the provider holds it: finished, still being made, or failed for good. */
export type TranscriptPoll =
  | { status: 'done'; result: TranscribeResult }
  | { status: 'pending' }
  | { status: 'failed'; error: SlowlaneError };

/**
 * What the waiting activity is completed with once the provider has finished: the transcript's id only, so the
 * workflow's history stays small; the transcript itself is read by id (AsyncSpeechGateway.fetch) in a later step.
 */
export interface FinishedTranscript {
  transcriptId: string;
}

/** The door to a provider that answers later: submit with a callback, read the transcript once it says so. */
export interface AsyncSpeechGateway {
  /** Uploads the chunk and submits it; budgeted and priced like `transcribe`. */
  submit(request: TranscribeRequest, callback: SpeechCallback): Promise<{ transcriptId: string }>;
  /** Reads a submitted transcript (a poll: no audio goes out, so no budget is drawn). */
  fetch(transcriptId: string, context: { jobId: string }): Promise<TranscriptPoll>;
}
