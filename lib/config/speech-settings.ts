import { setting, type SettingsArea } from '../settings/setting';
import { duration, int, number, oneOf, secret, strongSecret, text, url } from '../settings/setting-types';
import { SIMULATOR_URL } from './model-settings';

/** OpenAI's API, whose `POST /v1/audio/transcriptions` shape the speech-to-text client speaks. */
export const OPENAI_URL = 'https://api.openai.com';

/** AssemblyAI's API, whose asynchronous upload, submit, webhook and poll shape the other client speaks. */
export const ASSEMBLYAI_URL = 'https://api.assemblyai.com';

/** The two provider shapes: one answers in the request, the other calls back when the transcript is done. */
export const SPEECH_PROVIDERS = ['openai', 'assemblyai'] as const;
export type SpeechProvider = (typeof SPEECH_PROVIDERS)[number];

/** Each shape's model when SPEECH_MODEL is unset. */
export const DEFAULT_SPEECH_MODELS: Record<SpeechProvider, string> = { openai: 'whisper-1', assemblyai: 'universal-2' };

/** What OpenAI refuses beyond with a 413: "Maximum content size limit (26214400) exceeded". */
export const TRANSCRIPTION_UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;

/** The speech-to-text provider: the gateway's third provider, with its own budget in audio seconds (docs/gateway.md). */
export const speechArea = {
  title: 'Speech-to-text provider',
  settings: {
    provider: setting({
      env: 'SPEECH_PROVIDER',
      type: oneOf(SPEECH_PROVIDERS),
      default: 'openai',
      doc: "the provider's shape: `openai` (`POST /v1/audio/transcriptions`, answered in the request) or `assemblyai` (upload, submit with a webhook, the activity waits without a worker slot; docs/gateway.md)",
    }),
    apiKey: setting({
      env: 'SPEECH_API_KEY',
      type: secret(),
      required: 'production',
      doc: "the provider's key (OpenAI's, sent as a Bearer token, or AssemblyAI's, sent as `authorization`); without it (and without `SPEECH_BASE_URL`) the local simulator answers",
    }),
    baseURL: setting({
      env: 'SPEECH_BASE_URL',
      type: url(),
      defaultDoc: `\`${SIMULATOR_URL}\` (the simulator) when \`SPEECH_API_KEY\` is unset, else \`${OPENAI_URL}\` or \`${ASSEMBLYAI_URL}\` by \`SPEECH_PROVIDER\``,
      doc: 'where the provider is called (`/v1/audio/transcriptions`, or `/v2/upload` and `/v2/transcript`)',
    }),
    model: setting({
      env: 'SPEECH_MODEL',
      type: text(),
      defaultDoc: `\`${DEFAULT_SPEECH_MODELS.openai}\` (openai) or \`${DEFAULT_SPEECH_MODELS.assemblyai}\` (assemblyai)`,
      doc: 'transcription model (also the speech budget\'s pool); for openai it must answer `verbose_json` with segments (whisper-1 does, gpt-4o-transcribe answers json only)',
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
    callbackSecret: setting({
      env: 'SPEECH_CALLBACK_SECRET',
      type: strongSecret(),
      defaultDoc: 'a key derived from `API_PAGE_TOKEN_SECRET` (not in production with `assemblyai`)',
      doc: 'keys the HMAC on the provider\'s callback URLs (`POST /callbacks/speech/{id}?sig=`) and their auth header; required in production when `SPEECH_PROVIDER=assemblyai`; the same on every worker and API replica',
    }),
  },
} satisfies SettingsArea;
