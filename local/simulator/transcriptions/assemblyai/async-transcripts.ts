/** A transcript as the simulated AssemblyAI holds it. */
export interface SimTranscript {
  id: string;
  status: 'queued' | 'processing' | 'completed' | 'error';
  request: {
    audioUrl: string;
    speakerLabels: boolean;
    languageCode?: string;
    speechModel: string;
    webhook?: { url: string; authHeaderName?: string; authHeaderValue?: string };
  };
  /** The transcript object's finished fields (text, words, utterances, audio_duration, …) once completed. */
  result?: Record<string, unknown>;
  error?: string;
}

/** One webhook delivery attempt and what the receiver answered (0: no answer). */
export interface CallbackDelivery {
  transcriptId: string;
  status: number;
  body: string;
}

/** What the AssemblyAI shape answered: submissions, polls, deletions, webhooks sent and lost, by status. */
export interface AsyncTranscriptStats {
  uploads: number;
  submissions: number;
  polls: number;
  deletions: number;
  byStatus: Record<string, number>;
  callbacksLost: number;
  deliveries: CallbackDelivery[];
}

const emptyStats = (): AsyncTranscriptStats => ({ uploads: 0, submissions: 0, polls: 0, deletions: 0, byStatus: {}, callbacksLost: 0, deliveries: [] });

/** Uploads and transcripts of the asynchronous shape, kept until the simulator resets. */
export class AsyncTranscripts {
  readonly uploads = new Map<string, Buffer>();
  readonly transcripts = new Map<string, SimTranscript>();
  stats: AsyncTranscriptStats = emptyStats();

  clear(): void {
    this.uploads.clear();
    this.transcripts.clear();
    this.stats = emptyStats();
  }
}
