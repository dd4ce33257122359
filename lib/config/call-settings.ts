import { setting, type SettingsArea } from '../settings/setting';
import { duration, int, number, text } from '../settings/setting-types';

/** The `call.transcribe` job type: a recorded call cut at silences, transcribed per chunk, then summarised (docs/job-types.md). */
export const callArea = {
  title: 'Call jobs',
  settings: {
    maxDurationSeconds: setting({
      env: 'CALL_MAX_DURATION_SECONDS',
      type: int({ min: 1, max: 24 * 3600 }),
      default: String(4 * 3600),
      doc: 'longest recording a call job takes; the API reads the duration (ffprobe) and answers 413 beyond it',
    }),
    maxUploadBytes: setting({
      env: 'CALL_MAX_UPLOAD_BYTES',
      type: int({ min: 1, max: 2 * 1024 * 1024 * 1024 }),
      default: String(256 * 1024 * 1024),
      doc: "largest recording a call job takes, in bytes (413 beyond it), in place of MAX_UPLOAD_BYTES: the default holds four hours of 8 kHz 16-bit WAV (230 MB) or of any compressed format; the upload is spooled to disk, never held in memory",
    }),
    chunkSeconds: setting({
      env: 'CALL_CHUNK_SECONDS',
      type: int({ min: 10, max: 3600 }),
      default: '600',
      doc: 'target length of a transcription chunk; each cut is moved to the nearest silence within a quarter of it',
    }),
    overlapSeconds: setting({
      env: 'CALL_CHUNK_OVERLAP_SECONDS',
      type: number({ min: 0, max: 30 }),
      default: '2',
      doc: 'audio each chunk shares with its neighbours, so a word at a cut is heard whole by one of them',
    }),
    parallelChunks: setting({
      env: 'CALL_PARALLEL_CHUNKS',
      type: int({ min: 1, max: 64 }),
      default: '4',
      doc: 'chunks of one call transcribed at once (the speech budget still paces the fleet)',
    }),
    callbackWaitMs: setting({
      env: 'CALL_CALLBACK_WAIT',
      type: duration(),
      default: '10m',
      doc: "with `SPEECH_PROVIDER=assemblyai`, how long one attempt at a chunk waits for the provider's callback before the next attempt polls the transcript instead (a lost callback costs at most this); a few attempts bound the whole wait",
    }),
    reviewConfidence: setting({
      env: 'CALL_REVIEW_CONFIDENCE',
      type: number({ min: 0, max: 1 }),
      default: '0.6',
      doc:
        "below it a call goes to a person even when its summary is valid: its transcription confidence (the audio-time-weighted mean of the segments' that carry one; a call with none never goes for it). Segments below it are marked on the reviewer page; 0 turns it off",
    }),
    summaryModel: setting({
      env: 'MODEL_CALL_SUMMARY',
      type: text(),
      default: 'claude-haiku-4-5',
      doc: "model for a call's summary, action items and outcome",
    }),
  },
} satisfies SettingsArea;
