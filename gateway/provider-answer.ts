import type Anthropic from '@anthropic-ai/sdk';
import { ModelRateLimitedError } from '../common/errors';
import type { ModelPrice } from '../lib/config';
import type { Logger } from '../lib/logger';
import type { CallCost } from './budget/bucket-math';
import type { Reservation, TokenBudget } from './budget/token-budget';
import type { GatewayEvents } from './gateway-events';
import type { ReservingCall } from './reserve-call';
import { costOf } from './pricing';
import { retryAfterMs, toProviderError } from './provider-errors';
import { providerReadings } from './provider-headers';

/** A 429 without retry-after still pauses the fleet this long, so it does not answer with a burst. */
const DEFAULT_PAUSE_MS = 1_000;

export interface CallContext {
  budget: TokenBudget | undefined;
  reservation: Reservation | undefined;
  pool: string;
  request: ReservingCall;
  reserved: CallCost;
  events: GatewayEvents;
  log: Logger;
  now: () => number;
  prices: Record<string, ModelPrice>;
}

/** The provider's usage as the Messages API words it; the embeddings provider fills in only the two counts. */
export type BilledUsage = Pick<Anthropic.Usage, 'input_tokens' | 'output_tokens'> &
  Partial<Pick<Anthropic.Usage, 'cache_creation_input_tokens' | 'cache_read_input_tokens'>>;

export interface ProviderAnswer {
  startedAt: number;
  /** 0: no answer (connection error, timeout, cancelled). */
  status: number;
  headers: Headers | undefined;
  /** What the provider billed (the embeddings provider bills input tokens only). */
  usage?: BilledUsage;
  error?: unknown;
  /** A 429 that is a rate limit (not a spend limit); judged from the Anthropic SDK's error when not given. */
  rateLimited?: boolean;
}

/** Every input token of the call, cached or not: what the prompt's characters came to. */
export function totalInputTokens(usage: BilledUsage): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/** The provider's usage in the gateway's words; the cache counts are 0 when the answer omits them. */
export function tokenUsageOf(usage: BilledUsage) {
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheCreationInputTokens: usage.cache_creation_input_tokens ?? 0,
    cacheReadInputTokens: usage.cache_read_input_tokens ?? 0,
  };
}

/**
 * What the call takes from the provider's input-token rate limit: fresh input and cache writes count, cache reads
 * do not on current models (https://platform.claude.com/docs/en/api/rate-limits, "cache-aware ITPM").
 */
export function rateLimitedInputTokens(usage: BilledUsage): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0);
}

/**
 * After every call, answered or not: settle the reservation to what the provider billed, line the budget up with
 * the provider's headers, pause the fleet on a 429, and report the call. Budget trouble here is logged, never
 * thrown: the call already happened and its result (or its real error) matters more.
 */
export async function settleProviderAnswer(context: CallContext, answer: ProviderAnswer): Promise<void> {
  const { budget, reservation, pool, request, reserved, log } = context;
  const used: CallCost = answer.usage
    ? { input: rateLimitedInputTokens(answer.usage), output: answer.usage.output_tokens, requests: 1 }
    : answer.status > 0
      ? // The provider answered with an error: nothing billed, but the request may still count against RPM.
        { input: 0, output: 0, requests: 1 }
      : // No answer: the call may have run to the end, so nothing is given back.
        reserved;
  const rateLimited =
    answer.rateLimited ?? (answer.status === 429 && toProviderError(answer.error) instanceof ModelRateLimitedError);
  const pauseMs = rateLimited ? (retryAfterMs(answer.headers) ?? DEFAULT_PAUSE_MS) : undefined;
  if (budget) {
    try {
      if (reservation) await budget.settle(reservation, used);
      await budget.observe(pool, {
        readings: providerReadings(answer.headers, context.now()),
        ...(pauseMs !== undefined ? { pauseMs } : {}),
      });
    } catch (error) {
      log.error({ err: error, jobId: request.jobId, pool }, 'could not settle the call with the token budget');
    }
  }
  if (pauseMs !== undefined) {
    log.warn({ pool, model: request.model, pauseMs }, 'provider answered 429: the fleet pauses this pool');
    context.events.emit({ type: 'paused', pool, pauseMs, model: request.model });
  }
  const billed = answer.usage
    ? tokenUsageOf(answer.usage)
    : { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
  context.events.emit({
    type: 'call',
    jobId: request.jobId,
    model: request.model,
    pool,
    priority: request.priority,
    status: answer.status,
    latencyMs: context.now() - answer.startedAt,
    reserved,
    ...billed,
    costUsd: costOf(billed, context.prices[request.model]),
  });
}
