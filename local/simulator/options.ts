import { ConfigError } from '../../lib/settings/config-error';
import { readSettings } from '../../lib/settings/read-settings';
import { setting, type SettingsArea, type SettingValues } from '../../lib/settings/setting';
import { fromEnv, fromFlags, type Env } from '../../lib/settings/setting-sources';
import { int, number } from '../../lib/settings/setting-types';
import { deploymentArea } from '../../lib/config/deployment-settings';
import { loopbackHost } from '../stack/loopback-host-setting';

/**
 * The simulator's run-level settings, read from env and `--flag=value` overrides (the flag is the env name
 * without `SIM_`, lower case, `-`: `SIM_RATE_529` ↔ `--rate-529`) by the same reader as the product's config.
 */

const probability = number({ min: 0, max: 1 });
const faultRate = (env: string, what: string) =>
  setting({
    env,
    type: probability,
    default: '0',
    doc: `probability that a request gets ${what} when no header or rule chose a fault (the five rates add up to at most 1)`,
  });

export const simulatorArea = {
  title: 'Provider simulator (local/simulator)',
  settings: {
    host: setting({
      env: 'SIM_HOST',
      type: loopbackHost,
      default: '127.0.0.1',
      doc: 'where it listens; loopback only',
    }),
    port: setting({
      env: 'SIM_PORT',
      type: int({ min: 0, max: 65535 }),
      default: '8787',
      doc: 'its port (`0` = any free port)',
    }),
    requestsPerMinute: setting({
      env: 'SIM_RPM',
      type: int({ min: 1 }),
      default: '4000',
      doc: 'requests per minute before a 429',
    }),
    inputTokensPerMinute: setting({
      env: 'SIM_ITPM',
      type: int({ min: 1 }),
      default: '2000000',
      doc: 'input tokens per minute before a 429',
    }),
    outputTokensPerMinute: setting({
      env: 'SIM_OTPM',
      type: int({ min: 1 }),
      default: '400000',
      doc: 'output tokens per minute before a 429',
    }),
    latencyBaseMs: setting({
      env: 'SIM_LATENCY_BASE_MS',
      type: number({ min: 0 }),
      default: '40',
      doc: 'milliseconds every answer takes',
    }),
    latencyPerOutputTokenMs: setting({
      env: 'SIM_LATENCY_PER_OUTPUT_TOKEN_MS',
      type: number({ min: 0 }),
      default: '0.2',
      doc: 'milliseconds added per output token',
    }),
    embedTokensPerMinute: setting({
      env: 'SIM_EMBED_TPM',
      type: int({ min: 1 }),
      default: '8000000',
      doc: 'embeddings: tokens per minute before a 429 (voyage-3.5, tier 1)',
    }),
    embedRequestsPerMinute: setting({
      env: 'SIM_EMBED_RPM',
      type: int({ min: 1 }),
      default: '2000',
      doc: 'embeddings: requests per minute before a 429',
    }),
    embedLatencyBaseMs: setting({
      env: 'SIM_EMBED_LATENCY_BASE_MS',
      type: number({ min: 0 }),
      default: '30',
      doc: 'milliseconds every embeddings answer takes',
    }),
    embedLatencyPerThousandTokensMs: setting({
      env: 'SIM_EMBED_LATENCY_PER_1K_TOKENS_MS',
      type: number({ min: 0 }),
      default: '5',
      doc: 'milliseconds added per thousand tokens embedded',
    }),
    audioSecondsPerMinute: setting({
      env: 'SIM_AUDIO_SECONDS_PER_MINUTE',
      type: int({ min: 1 }),
      default: '36000',
      doc: 'transcriptions: seconds of audio per minute before a 429',
    }),
    audioConcurrentRequests: setting({
      env: 'SIM_AUDIO_CONCURRENT_REQUESTS',
      type: int({ min: 1 }),
      default: '50',
      doc: 'transcriptions: requests in flight at once before a 429',
    }),
    audioLatencyBaseMs: setting({
      env: 'SIM_AUDIO_LATENCY_BASE_MS',
      type: number({ min: 0 }),
      default: '100',
      doc: 'milliseconds every transcription of script-carrying audio takes (pocketsphinx takes its own time)',
    }),
    audioLatencyPerMinuteMs: setting({
      env: 'SIM_AUDIO_LATENCY_PER_MINUTE_MS',
      type: number({ min: 0 }),
      default: '500',
      doc: 'milliseconds added per minute of script-carrying audio',
    }),
    transcriberProcesses: setting({
      env: 'SIM_TRANSCRIBER_PROCESSES',
      type: int({ min: 1, max: 64 }),
      default: '1',
      doc: 'pocketsphinx processes at once (each takes a core for about a third of the audio\'s length); more requests wait their turn',
    }),
    transcriberTimeoutMs: setting({
      env: 'SIM_TRANSCRIBER_TIMEOUT_MS',
      type: int({ min: 1 }),
      default: '300000',
      doc: 'a pocketsphinx run that takes longer is killed and the request answers 500',
    }),
    speechCallbackDelayMs: setting({
      env: 'SIM_SPEECH_CALLBACK_DELAY_MS',
      type: int({ min: 0 }),
      default: '0',
      doc: 'AssemblyAI shape: milliseconds between a finished transcript and its webhook (a late callback)',
    }),
    speechCallbackCopies: setting({
      env: 'SIM_SPEECH_CALLBACK_COPIES',
      type: int({ min: 1, max: 5 }),
      default: '1',
      doc: 'AssemblyAI shape: how many times each webhook is delivered (2 or more: duplicate callbacks)',
    }),
    speechCallbackLossRate: setting({
      env: 'SIM_SPEECH_CALLBACK_LOSS_RATE',
      type: probability,
      default: '0',
      doc: 'AssemblyAI shape: probability that a finished transcript\'s webhook is never sent (a lost callback; the client must poll)',
    }),
    rate429: faultRate('SIM_RATE_429', 'a 429 rate limit'),
    rate529: faultRate('SIM_RATE_529', 'a 529 overloaded'),
    rate500: faultRate('SIM_RATE_500', 'a 500'),
    rateRefusal: faultRate('SIM_RATE_REFUSAL', 'a refusal'),
    rateMalformed: faultRate('SIM_RATE_MALFORMED', 'tool input that breaks the schema'),
    repairRate: setting({
      env: 'SIM_REPAIR_RATE',
      type: probability,
      default: '0.9',
      doc: 'probability that a request returning the validator\'s errors on its last tool call (an `is_error` tool_result) gets a schema-valid answer; drawn from a hash of the request, so the same request always gets the same answer',
    }),
    cacheTtlMs: setting({
      env: 'SIM_CACHE_TTL_MS',
      type: int({ min: 1 }),
      default: '300000',
      doc: 'lifetime of a prompt-cache entry, refreshed by each read (the provider\'s default `ephemeral` lifetime is 5 minutes)',
    }),
    cacheMaxEntries: setting({
      env: 'SIM_CACHE_MAX_ENTRIES',
      type: int({ min: 0 }),
      default: '10000',
      doc: 'prompt-cache entries kept; the least recently used goes first',
    }),
    cacheMinTokens: setting({
      env: 'SIM_CACHE_MIN_TOKENS',
      type: int({ min: 1 }),
      default: '1024',
      doc: 'shortest prefix (tokens) that is cached; the provider\'s minimum is 1,024 to 4,096 depending on the model',
    }),
    batchProcessingMs: setting({
      env: 'SIM_BATCH_PROCESSING_MS',
      type: int({ min: 0 }),
      default: '2000',
      doc: 'how long a Message Batch stays `in_progress` before all its entries end (the provider takes minutes to 24 h)',
    }),
    batchErrorRate: setting({
      env: 'SIM_BATCH_ERROR_RATE',
      type: probability,
      default: '0',
      doc: 'probability that a Message Batch entry ends `errored` (an `api_error`, not billed)',
    }),
    batchExpiredRate: setting({
      env: 'SIM_BATCH_EXPIRED_RATE',
      type: probability,
      default: '0',
      doc: 'probability that a Message Batch entry ends `expired` (not processed within the batch\'s 24 h, not billed)',
    }),
    seed: setting({
      env: 'SIM_SEED',
      type: int(),
      doc: 'with a seed, random faults and generated ids repeat exactly from run to run',
    }),
  },
} satisfies SettingsArea;

/** Settings from env, then flags; the seed is `null` when unset because `PUT /_sim/config` can clear it. */
export type SimulatorOptions = Omit<SettingValues<typeof simulatorArea.settings>, 'seed'> & { seed: number | null };

/** Settings `PUT /_sim/config` may change; the address is fixed once the server listens. */
export type RuntimeSettings = Omit<SimulatorOptions, 'host' | 'port'>;

/** Settings from env, then `--key=value` flags (flags win), validated as a whole. */
export function loadOptions(env: Env, argv: readonly string[]): SimulatorOptions {
  const { seed, ...values } = readSettings(simulatorArea.settings, [
    fromEnv(env),
    fromFlags(argv, simulatorArea.settings, 'SIM_'),
  ]);
  const options = { ...values, seed: seed ?? null };
  checkFaultRates(options);
  return options;
}

export const DEFAULT_OPTIONS: SimulatorOptions = loadOptions({}, []);

/** One random draw decides a request's fault, so the rates share the unit interval. */
export function checkFaultRates(settings: RuntimeSettings): void {
  const total = settings.rate429 + settings.rate529 + settings.rate500 + settings.rateRefusal + settings.rateMalformed;
  if (total > 1 + 1e-9) throw new ConfigError(`fault rates add up to ${total}, more than 1`);
}

const RUNTIME_KEYS = Object.keys(simulatorArea.settings).filter(
  (key): key is keyof RuntimeSettings => key !== 'host' && key !== 'port',
);

/**
 * Validates a `PUT /_sim/config` body: known runtime keys only, JSON numbers (or `null` for the seed) checked by
 * the same setting types as the environment, so both paths accept the same things.
 */
export function parseSettingsPatch(body: unknown): Partial<RuntimeSettings> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ConfigError('config must be a JSON object');
  }
  const patch: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!RUNTIME_KEYS.includes(key as keyof RuntimeSettings)) {
      throw new ConfigError(`"${key}" cannot be changed at runtime; known keys: ${RUNTIME_KEYS.join(', ')}`);
    }
    if (key === 'seed' && value === null) {
      patch.seed = null;
      continue;
    }
    if (typeof value !== 'number') throw new ConfigError(`${key} must be a number, got ${JSON.stringify(value)}`);
    const parsed = simulatorArea.settings[key as keyof RuntimeSettings].type.parse(String(value));
    if (!parsed.ok)
      throw new ConfigError(`${key}=${value} ${parsed.problems.map((problem) => problem.message).join(', ')}`);
    patch[key] = parsed.value;
  }
  return patch as Partial<RuntimeSettings>;
}

export function runtimeSettingsOf(options: SimulatorOptions): RuntimeSettings {
  const { host: _host, port: _port, ...settings } = options;
  return settings;
}

/** The simulator's log level: LOG_LEVEL, the same setting as every Slowlane process's. */
export function logLevelFrom(env: Env): string {
  return readSettings({ logLevel: deploymentArea.settings.logLevel }, [fromEnv(env)]).logLevel;
}
