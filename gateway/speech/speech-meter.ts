import { TokenBudgetExhaustedError } from '../../common/errors';
import type { Priority } from '../../common/task-queues';
import type { Config, ModelPrice } from '../../lib/config';
import type { Logger } from '../../lib/logger';
import type { CallCost } from '../budget/bucket-math';
import type { ConcurrencyLease, ConcurrencyLimit } from '../budget/concurrency-limit';
import type { TokenBudget } from '../budget/token-budget';
import { GatewayEvents } from '../gateway-events';
import { settleProviderAnswer } from '../provider-answer';
import { reserveCall } from '../reserve-call';
import { retryDelayAfterDenial } from '../retry-delay';
import { errorOfBody, SpeechHttpError, toSpeechError } from './speech-errors';

export type SpeechSettings = Pick<Config['speech'], 'apiKey' | 'baseURL' | 'model' | 'pricePerMinute' | 'requestTimeoutMs'>;

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

/** A concurrency slot outlives its request's timeout by this much before it lapses (a worker that died mid-call). */
const LEASE_MARGIN_MS = 10_000;
/** A full house frees a slot when some request ends, which no one can tell in advance: come back about this soon. */
const CONCURRENCY_RETRY_MS = 1_000;

/**
 * The speech door's shared half, whatever the provider's shape: hold a concurrency slot and reserve the chunk's audio
 * seconds from the fleet's speech budget, settle to the billed seconds, pause the fleet on a 429 for its
 * `retry-after`, price per audio minute. No retries here: Temporal retries, with the typed error's retryAfterMs.
 */
export function createSpeechMeter(deps: SpeechGatewayDeps): SpeechMeter {
  const { settings, log } = deps;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const doFetch = deps.fetch ?? fetch;
  const events = deps.events ?? new GatewayEvents((error) => log.error({ err: error }, 'gateway listener failed'));
  const model = settings.model;
  const pool = model;
  // The budget's `input` unit is an audio second, so its price per "million tokens" is a million seconds' worth.
  const prices: Record<string, ModelPrice> = { [model]: { inputPerMTok: (settings.pricePerMinute / 60) * 1_000_000, outputPerMTok: 0 } };
  const signalOf = (signal: AbortSignal | undefined) =>
    AbortSignal.any([AbortSignal.timeout(settings.requestTimeoutMs), ...(signal ? [signal] : [])]);

  return {
    model,
    events,
    fetch: doFetch,
    costOfSeconds: (seconds) => (seconds / 60) * settings.pricePerMinute,
    async call(audio, exchange) {
      const call = { jobId: audio.jobId, model, priority: audio.priority };
      const lease = await acquireSlot(deps.concurrency, pool, settings.requestTimeoutMs + LEASE_MARGIN_MS, () => {
        events.emit({ type: 'denied', ...call, pool, waitMs: CONCURRENCY_RETRY_MS, limitedBy: 'concurrency' });
        return retryDelayAfterDenial(CONCURRENCY_RETRY_MS, random);
      });
      try {
        const reserved: CallCost = { input: Math.max(1, Math.ceil(audio.durationSeconds)), output: 0, requests: 1 };
        const reservation = await reserveCall({ budget: deps.budget, events, random }, call, pool, reserved);
        const context = { budget: deps.budget, reservation, pool, request: call, reserved, events, log, now, prices };
        const startedAt = now();
        let settled = false;
        try {
          const response = await exchange.send(signalOf(audio.signal));
          const text = await response.text();
          if (!response.ok) {
            const { message, code } = errorOfBody(text);
            const error = new SpeechHttpError(response.status, response.headers, message, code);
            await settleProviderAnswer(context, {
              startedAt,
              status: response.status,
              headers: response.headers,
              error,
              rateLimited: response.status === 429 && !error.quotaSpent,
            });
            settled = true;
            throw error;
          }
          const { value, billedSeconds } = exchange.read(text);
          await settleProviderAnswer(context, {
            startedAt,
            status: response.status,
            headers: response.headers,
            usage: { input_tokens: billedSeconds, output_tokens: 0 },
          });
          settled = true;
          return value;
        } catch (error) {
          if (!settled) {
            // No answer (timeout, cancelled, connection refused, unreadable body): the budget keeps what it reserved.
            await settleProviderAnswer(context, { startedAt, status: 0, headers: undefined, error, rateLimited: false });
          }
          const mapped = toSpeechError(error, audio.signal?.aborted ?? false);
          log.warn({ jobId: audio.jobId, model, err: mapped }, 'transcription failed');
          throw mapped;
        }
      } finally {
        if (lease) await releaseSlot(deps.concurrency, lease, log);
      }
    },
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

/** A slot, or the retryable error that hands the activity's slot back until one is likely free. */
async function acquireSlot(
  concurrency: ConcurrencyLimit | undefined,
  pool: string,
  holdMs: number,
  denied: () => number,
): Promise<ConcurrencyLease | undefined> {
  if (!concurrency) return undefined;
  const lease = await concurrency.acquire(pool, holdMs);
  if (lease) return lease;
  const retryAfterMs = denied();
  throw new TokenBudgetExhaustedError(`every concurrent request to ${pool} is in flight; retry in ${retryAfterMs} ms`, {
    retryAfterMs,
    details: { pool, limitedBy: 'concurrency' },
  });
}

/** A slot that cannot be given back lapses on its own: logged, never thrown over the call's own outcome. */
async function releaseSlot(concurrency: ConcurrencyLimit | undefined, lease: ConcurrencyLease, log: Logger): Promise<void> {
  try {
    await concurrency?.release(lease);
  } catch (error) {
    log.error({ err: error, pool: lease.pool }, 'could not release a concurrency slot; it lapses on its own');
  }
}
