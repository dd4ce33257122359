/** What the transcription endpoint answered and billed: requests by status, and audio by who transcribed it. */
export interface TranscriptionStats {
  requests: number;
  byStatus: Record<string, number>;
  /** Seconds of audio answered 200, rounded up per request as the provider bills them. */
  billedAudioSeconds: number;
  billedAudioMinutes: number;
  /** Of `billedAudioSeconds`, those of answers whose client had gone away (a killed worker, an aborted call). */
  undeliveredAudioSeconds: number;
  /** Requests answered from the recording's own script, and by pocketsphinx. */
  byEngine: { script: number; pocketsphinx: number };
  /** The most requests in flight at once, so tests see the client's concurrency limit hold. */
  maxInFlight: number;
}

export const emptyTranscriptionStats = (): TranscriptionStats => ({
  requests: 0,
  byStatus: {},
  billedAudioSeconds: 0,
  billedAudioMinutes: 0,
  undeliveredAudioSeconds: 0,
  byEngine: { script: 0, pocketsphinx: 0 },
  maxInFlight: 0,
});
