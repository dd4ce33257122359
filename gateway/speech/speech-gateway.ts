import { extname } from 'node:path';
import { TokenBudgetExhaustedError } from '../../common/errors';
import type { Config, ModelPrice } from '../../lib/config';
import type { Logger } from '../../lib/logger';
import type { CallCost } from '../budget/bucket-math';
import type { ConcurrencyLease, ConcurrencyLimit } from '../budget/concurrency-limit';
import type { TokenBudget } from '../budget/token-budget';
import { GatewayEvents } from '../gateway-events';
import { settleProviderAnswer } from '../provider-answer';
import { reserveCall } from '../reserve-call';
import { retryDelayAfterDenial } from '../retry-delay';
import { SpeechHttpError, toSpeechError } from './speech-errors';
import type { SpeechGateway, TranscribeRequest, TranscribeResult, TranscriptSegment } from './transcription-call';

export type SpeechSettings = Pick<Config['speech'], 'apiKey' | 'baseURL' | 'model' | 'pricePerMinute' | 'requestTimeoutMs'>;

/** The speech door as the worker wires it, with its own events: its budget counts audio seconds, not tokens. */
export interface WiredSpeechGateway extends SpeechGateway {
  readonly events: GatewayEvents;
}

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

/** A concurrency slot outlives its request's timeout by this much before it lapses (a worker that died mid-call). */
const LEASE_MARGIN_MS = 10_000;
/** A full house frees a slot when some request ends, which no one can tell in advance: come back about this soon. */
const CONCURRENCY_RETRY_MS = 1_000;

const CONTENT_TYPES: Record<string, string> = {
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.mp4': 'audio/mp4',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.flac': 'audio/flac',
  '.webm': 'audio/webm',
};

interface VerboseTranscription {
  text?: unknown;
  language?: unknown;
  duration?: unknown;
  segments?: Array<{ start?: unknown; end?: unknown; text?: unknown }>;
  usage?: { type?: unknown; seconds?: unknown };
}

/**
 * OpenAI's `POST /v1/audio/transcriptions` (multipart, `verbose_json` with segment timestamps) behind the gateway: hold
 * a concurrency slot and reserve the chunk's audio seconds from the fleet's speech budget, call, settle to the billed
 * seconds, pause the fleet's transcriptions on a 429 for its `retry-after`, and price the call per audio minute. No
 * retries here: Temporal retries, with the typed error's retryAfterMs.
 */
export function createSpeechGateway(deps: SpeechGatewayDeps): WiredSpeechGateway {
  const { settings, log } = deps;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const doFetch = deps.fetch ?? fetch;
  const events = deps.events ?? new GatewayEvents((error) => log.error({ err: error }, 'gateway listener failed'));
  const model = settings.model;
  const pool = model;
  // The budget's `input` unit is an audio second, so its price per "million tokens" is a million seconds' worth.
  const prices: Record<string, ModelPrice> = { [model]: { inputPerMTok: (settings.pricePerMinute / 60) * 1_000_000, outputPerMTok: 0 } };
  const costOfSeconds = (seconds: number) => (seconds / 60) * settings.pricePerMinute;

  return {
    events,
    async transcribe(request) {
      const call = { jobId: request.jobId, model, priority: request.priority };
      const lease = await acquireSlot(deps.concurrency, pool, settings.requestTimeoutMs + LEASE_MARGIN_MS, () => {
        events.emit({ type: 'denied', ...call, pool, waitMs: CONCURRENCY_RETRY_MS, limitedBy: 'concurrency' });
        return retryDelayAfterDenial(CONCURRENCY_RETRY_MS, random);
      });
      try {
        const reserved: CallCost = { input: Math.max(1, Math.ceil(request.durationSeconds)), output: 0, requests: 1 };
        const reservation = await reserveCall({ budget: deps.budget, events, random }, call, pool, reserved);
        const context = { budget: deps.budget, reservation, pool, request: call, reserved, events, log, now, prices };
        const startedAt = now();
        let settled = false;
        try {
          const response = await doFetch(`${settings.baseURL.replace(/\/$/, '')}/v1/audio/transcriptions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${settings.apiKey.reveal()}` },
            body: formOf(request, model),
            signal: AbortSignal.any([AbortSignal.timeout(settings.requestTimeoutMs), ...(request.signal ? [request.signal] : [])]),
          });
          const text = await response.text();
          if (!response.ok) {
            const { message, code } = errorOf(text);
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
          const body = JSON.parse(text) as VerboseTranscription;
          const durationSeconds = typeof body.duration === 'number' ? body.duration : request.durationSeconds;
          const billed = typeof body.usage?.seconds === 'number' ? body.usage.seconds : Math.ceil(durationSeconds);
          await settleProviderAnswer(context, {
            startedAt,
            status: response.status,
            headers: response.headers,
            usage: { input_tokens: billed, output_tokens: 0 },
          });
          settled = true;
          return {
            text: typeof body.text === 'string' ? body.text.trim() : '',
            segments: segmentsOf(body),
            ...(typeof body.language === 'string' ? { language: body.language } : {}),
            durationSeconds,
            model,
            usage: { audioSeconds: billed, costUsd: costOfSeconds(billed) },
          } satisfies TranscribeResult;
        } catch (error) {
          if (!settled) {
            // No answer (timeout, cancelled, connection refused, unreadable body): the budget keeps what it reserved.
            await settleProviderAnswer(context, { startedAt, status: 0, headers: undefined, error, rateLimited: false });
          }
          const mapped = toSpeechError(error, request.signal?.aborted ?? false);
          log.warn({ jobId: request.jobId, model, err: mapped }, 'transcription failed');
          throw mapped;
        }
      } finally {
        if (lease) await releaseSlot(deps.concurrency, lease, log);
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

function formOf(request: TranscribeRequest, model: string): FormData {
  const form = new FormData();
  const type = CONTENT_TYPES[extname(request.filename).toLowerCase()] ?? 'application/octet-stream';
  form.append('file', new Blob([request.audio], { type }), request.filename);
  form.append('model', model);
  form.append('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'segment');
  if (request.language) form.append('language', request.language);
  if (request.prompt) form.append('prompt', request.prompt);
  return form;
}

function segmentsOf(body: VerboseTranscription): TranscriptSegment[] {
  return (Array.isArray(body.segments) ? body.segments : []).flatMap((segment) =>
    typeof segment.start === 'number' && typeof segment.end === 'number' && typeof segment.text === 'string'
      ? [{ start: segment.start, end: segment.end, text: segment.text.trim() }]
      : [],
  );
}

function errorOf(text: string): { message: string; code: string | undefined } {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown; code?: unknown } };
    if (typeof parsed.error?.message === 'string') {
      return { message: parsed.error.message, code: typeof parsed.error.code === 'string' ? parsed.error.code : undefined };
    }
  } catch {
    // Not JSON (a proxy's error page): the start of the text says enough.
  }
  return { message: text.slice(0, 300), code: undefined };
}
