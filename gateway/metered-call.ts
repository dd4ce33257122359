import { type SlowlaneError, TokenBudgetExhaustedError } from '../common/errors';
import type { ModelPrice } from '../lib/config';
import type { Logger } from '../lib/logger';
import type { CallCost } from './budget/bucket-math';
import type { ConcurrencyLease, ConcurrencyLimit } from './budget/concurrency-limit';
import type { TokenBudget } from './budget/token-budget';
import type { GatewayEvents } from './gateway-events';
import { settleProviderAnswer } from './provider-answer';
import { type ReservingCall, reserveCall } from './reserve-call';
import { retryDelayAfterDenial } from './retry-delay';

/** A concurrency slot outlives its request's timeout by this much before it lapses (a worker that died mid-call). */
const LEASE_MARGIN_MS = 10_000;
/** A full house frees a slot when some request ends, which no one can tell in advance: come back about this soon. */
const CONCURRENCY_RETRY_MS = 1_000;

/** A provider door that is not the Messages API (embeddings, speech): its budget, slots, and how it words failures. */
export interface MeteredDoor {
  /** The door's own budget (one pool per model, its `input` unit the door's: tokens, audio seconds); none: no pacing. */
  budget: TokenBudget | undefined;
  /** Requests in flight across the fleet; none: unbounded. */
  concurrency?: ConcurrencyLimit;
  events: GatewayEvents;
  log: Logger;
  now: () => number;
  random: () => number;
  /** The pool's price per million `input` units, for the call event's cost. */
  prices: Record<string, ModelPrice>;
  requestTimeoutMs: number;
  /** The door's own mapping of an HTTP error answer or a failed fetch onto the typed errors that say whether to retry. */
  toTypedError(error: unknown, cancelled: boolean): SlowlaneError;
  /** Logged with a failure's typed error (`transcription failed`). */
  failureMessage: string;
}

/** One paid HTTP exchange: send it, word an error answer, read a 2xx answer. */
export interface MeteredExchange<T> {
  send(signal: AbortSignal): Promise<Response>;
  /** An error answer as the door's HTTP error; `rateLimited` pauses the fleet's pool for its retry-after. */
  refusalOf(response: Response, body: string): { error: Error; rateLimited: boolean };
  /**
   * A 2xx answer: the `input` units billed, and its value, taken only once those are settled, so an answer that
   * was billed but proves unusable still counts (its error is then the door's, mapped like any other).
   */
  read(body: string): { billed: number; value: () => T };
}

/**
 * The one sequence of every metered door: hold a concurrency slot (when the door has a limit), reserve `reserved`
 * from its budget, send, settle to what the provider billed (an answer with no bill settles what was reserved, as
 * does a call with no answer at all: a timeout, a cancel, a refused connection), and map any failure to a typed
 * error. No retries here: Temporal retries, with the typed error's retryAfterMs.
 */
export async function meteredCall<T>(
  door: MeteredDoor,
  call: ReservingCall,
  reserved: CallCost,
  exchange: MeteredExchange<T>,
  signal?: AbortSignal,
): Promise<T> {
  const { budget, events, log, now, random } = door;
  const pool = call.model;
  const lease = await acquireSlot(door, pool, call);
  try {
    const reservation = await reserveCall({ budget, events, random }, call, pool, reserved);
    const context = { budget, reservation, pool, request: call, reserved, events, log, now, prices: door.prices };
    const startedAt = now();
    let settled = false;
    try {
      const response = await exchange.send(AbortSignal.any([AbortSignal.timeout(door.requestTimeoutMs), ...(signal ? [signal] : [])]));
      const text = await response.text();
      if (!response.ok) {
        const { error, rateLimited } = exchange.refusalOf(response, text);
        await settleProviderAnswer(context, { startedAt, status: response.status, headers: response.headers, error, rateLimited });
        settled = true;
        throw error;
      }
      const { billed, value } = exchange.read(text);
      await settleProviderAnswer(context, {
        startedAt,
        status: response.status,
        headers: response.headers,
        usage: { input_tokens: billed, output_tokens: 0 },
      });
      settled = true;
      return value();
    } catch (error) {
      if (!settled) {
        // No answer (timeout, cancelled, connection refused, unreadable body): the budget keeps what it reserved.
        await settleProviderAnswer(context, { startedAt, status: 0, headers: undefined, error, rateLimited: false });
      }
      const mapped = door.toTypedError(error, signal?.aborted ?? false);
      log.warn({ jobId: call.jobId, model: call.model, err: mapped }, door.failureMessage);
      throw mapped;
    }
  } finally {
    if (lease) await releaseSlot(door, lease);
  }
}

/** A slot, or the retryable error that hands the activity's slot back until one is likely free. */
async function acquireSlot(door: MeteredDoor, pool: string, call: ReservingCall): Promise<ConcurrencyLease | undefined> {
  if (!door.concurrency) return undefined;
  const lease = await door.concurrency.acquire(pool, door.requestTimeoutMs + LEASE_MARGIN_MS);
  if (lease) return lease;
  door.events.emit({ type: 'denied', ...call, pool, waitMs: CONCURRENCY_RETRY_MS, limitedBy: 'concurrency' });
  const retryAfterMs = retryDelayAfterDenial(CONCURRENCY_RETRY_MS, door.random);
  throw new TokenBudgetExhaustedError(`every concurrent request to ${pool} is in flight; retry in ${retryAfterMs} ms`, {
    retryAfterMs,
    details: { pool, limitedBy: 'concurrency' },
  });
}

/** A slot that cannot be given back lapses on its own: logged, never thrown over the call's own outcome. */
async function releaseSlot(door: MeteredDoor, lease: ConcurrencyLease): Promise<void> {
  try {
    await door.concurrency?.release(lease);
  } catch (error) {
    door.log.error({ err: error, pool: lease.pool }, 'could not release a concurrency slot; it lapses on its own');
  }
}
