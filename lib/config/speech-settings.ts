import { setting, type SettingsArea } from '../settings/setting';
import { duration, int, number, secret, text, url } from '../settings/setting-types';
import { SIMULATOR_URL } from './model-settings';

/** OpenAI's API, whose `POST /v1/audio/transcriptions` shape the speech-to-text client speaks. */
export const OPENAI_URL = 'https://api.openai.com';

/** What OpenAI refuses beyond with a 413: "Maximum content size limit (26214400) exceeded". */
export const TRANSCRIPTION_UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;

/** The speech-to-text provider: the gateway's third provider, with its own budget in audio seconds (docs/gateway.md). */
export const speechArea = {
  title: 'Speech-to-text provider',
  settings: {
    apiKey: setting({
      env: 'SPEECH_API_KEY',
      type: secret(),
      required: 'production',
      doc: 'the key of an OpenAI-compatible transcription API; without it (and without `SPEECH_BASE_URL`) the local simulator answers',
    }),
    baseURL: setting({
      env: 'SPEECH_BASE_URL',
      type: url(),
      defaultDoc: `\`${SIMULATOR_URL}\` (the simulator) when \`SPEECH_API_KEY\` is unset, else \`${OPENAI_URL}\``,
      doc: 'where `POST /v1/audio/transcriptions` is sent',
    }),
    model: setting({
      env: 'SPEECH_MODEL',
      type: text(),
      default: 'whisper-1',
      doc: 'transcription model; it must answer `verbose_json` with segments (whisper-1 does, gpt-4o-transcribe answers json only)',
    }),
    audioSecondsPerMinute: setting({
      env: 'SPEECH_AUDIO_SECONDS_PER_MINUTE',
      type: int({ min: 1, max: 1e9 }),
      default: '3600',
      doc: 'seconds of audio the fleet may send per minute: the speech budget, shared through Redis like the token budget',
    }),
    maxConcurrentRequests: setting({
      env: 'SPEECH_MAX_CONCURRENT_REQUESTS',
      type: int({ min: 1, max: 10_000 }),
      default: '8',
      doc: 'transcription requests in flight at once across the fleet',
    }),
    maxUploadBytes: setting({
      env: 'SPEECH_MAX_UPLOAD_BYTES',
      type: int({ min: 1024, max: TRANSCRIPTION_UPLOAD_LIMIT_BYTES }),
      default: String(TRANSCRIPTION_UPLOAD_LIMIT_BYTES),
      doc: "the provider's largest request (OpenAI: 25 MiB, 413 beyond); audio is cut into chunks below it",
    }),
    pricePerMinute: setting({
      env: 'SPEECH_PRICE_PER_MINUTE',
      type: number({ min: 0 }),
      default: '0.006',
      doc: 'USD per minute of audio transcribed (whisper-1 list price), for the cost of each job',
    }),
    requestTimeoutMs: setting({
      env: 'SPEECH_REQUEST_TIMEOUT',
      type: duration(),
      default: '120s',
      doc: "per-attempt HTTP timeout (below the activity's start-to-close timeout); also how long a crashed worker's concurrency slot stays taken",
    }),
  },
} satisfies SettingsArea;
