import type { Priority } from '../../common/task-queues';
import type { Config } from '../../lib/config';
import type { Logger } from '../../lib/logger';
import type { ConcurrencyLimit } from '../budget/concurrency-limit';
import type { TokenBudget } from '../budget/token-budget';
import { GatewayEvents } from '../gateway-events';
import { type MeteredDoor, meteredCall } from '../metered-call';
import { errorOfBody, SpeechHttpError, toSpeechError } from './speech-errors';

export type SpeechSettings = Pick<Config['speech'], 'apiKey' | 'baseURL' | 'model' | 'pricePerMinute' | 'requestTimeoutMs'>;

/** What `seconds` of audio cost at `pricePerMinute` (SPEECH_PRICE_PER_MINUTE): the one pricing of audio. */
export const audioCostUsd = (seconds: number, pricePerMinute: number): number => (seconds / 60) * pricePerMinute;

export interface SpeechGatewayDeps {
  settings: SpeechSettings;
  log: Logger;
  /** Audio seconds per minute (the pool's `input` dimension), one pool named after the model; none: no pacing. */
  budget?: TokenBudget;
  /** Requests in flight across the fleet; none: unbounded. */
  concurrency?: ConcurrencyLimit;
  events?: GatewayEvents;
  fetch?: typeof fetch;
  now?: () => number;
  random?: () => number;
}

/** What a metered call knows of the chunk: whose it is, its priority, and the seconds the budget reserves. */
export interface MeteredAudio {
  jobId: string;
  priority: Priority;
  durationSeconds: number;
  signal?: AbortSignal;
}

/** One exchange with the provider: send (with the attempt's signal), then read a 2xx answer's value and billed seconds. */
export interface SpeechExchange<T> {
  send(signal: AbortSignal): Promise<Response>;
  read(body: string): { value: T; billedSeconds: number };
}

export interface SpeechMeter {
  readonly model: string;
  readonly events: GatewayEvents;
  readonly fetch: typeof fetch;
  costOfSeconds(seconds: number): number;
  /** Holds a slot and reserves the audio seconds around `exchange`, settles to what was billed, maps failures to typed errors. */
  call<T>(audio: MeteredAudio, exchange: SpeechExchange<T>): Promise<T>;
  /** An unmetered exchange (a poll: no audio goes out), with the same timeout and typed errors. */
  read<T>(jobId: string, send: (signal: AbortSignal) => Promise<Response>, read: (body: string) => T): Promise<T>;
}

/**
 * The speech door's shared half, whatever the provider's shape: a metered call (gateway/metered-call.ts) holds a
 * concurrency slot and reserves the chunk's audio seconds from the fleet's speech budget, settles to the billed
 * seconds, pauses the fleet on a 429 for its `retry-after`; priced per audio minute.
 */
export function createSpeechMeter(deps: SpeechGatewayDeps): SpeechMeter {
  const { settings, log } = deps;
  const doFetch = deps.fetch ?? fetch;
  const events = deps.events ?? new GatewayEvents((error) => log.error({ err: error }, 'gateway listener failed'));
  const model = settings.model;
  const door: MeteredDoor = {
    budget: deps.budget,
    ...(deps.concurrency ? { concurrency: deps.concurrency } : {}),
    events,
    log,
    now: deps.now ?? Date.now,
    random: deps.random ?? Math.random,
    // The budget's `input` unit is an audio second, so its price per "million tokens" is a million seconds' worth.
    prices: { [model]: { inputPerMTok: (settings.pricePerMinute / 60) * 1_000_000, outputPerMTok: 0 } },
    requestTimeoutMs: settings.requestTimeoutMs,
    toTypedError: toSpeechError,
    failureMessage: 'transcription failed',
  };
  const signalOf = (signal: AbortSignal | undefined) =>
    AbortSignal.any([AbortSignal.timeout(settings.requestTimeoutMs), ...(signal ? [signal] : [])]);

  return {
    model,
    events,
    fetch: doFetch,
    costOfSeconds: (seconds) => audioCostUsd(seconds, settings.pricePerMinute),
    call: (audio, exchange) =>
      meteredCall(
        door,
        { jobId: audio.jobId, model, priority: audio.priority },
        { input: Math.max(1, Math.ceil(audio.durationSeconds)), output: 0, requests: 1 },
        {
          send: exchange.send,
          refusalOf(response, body) {
            const { message, code } = errorOfBody(body);
            const error = new SpeechHttpError(response.status, response.headers, message, code);
            return { error, rateLimited: response.status === 429 && !error.quotaSpent };
          },
          read(body) {
            const { value, billedSeconds } = exchange.read(body);
            return { billed: billedSeconds, value: () => value };
          },
        },
        audio.signal,
      ),
    async read(jobId, send, read) {
      try {
        const response = await send(signalOf(undefined));
        const text = await response.text();
        if (!response.ok) {
          const { message, code } = errorOfBody(text);
          throw new SpeechHttpError(response.status, response.headers, message, code);
        }
        return read(text);
      } catch (error) {
        const mapped = toSpeechError(error, false);
        log.warn({ jobId, model, err: mapped }, 'reading a transcript failed');
        throw mapped;
      }
    },
  };
}
