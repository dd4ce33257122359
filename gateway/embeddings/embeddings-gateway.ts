import type { Config } from '../../lib/config';
import type { Logger } from '../../lib/logger';
import type { TokenBudget } from '../budget/token-budget';
import { GatewayEvents } from '../gateway-events';
import { costOf } from '../pricing';
import { type MeteredDoor, meteredCall } from '../metered-call';
import { InputTokenEstimator } from '../token-estimate';
import type { EmbeddingsGateway } from './embeddings-call';
import { EmbeddingsHttpError, toEmbeddingsError } from './embeddings-errors';

/** An embeddings call's tokens in the gateway's words: input only, nothing cached. */
const EMBEDDING_TOKENS = (tokens: number) => ({ inputTokens: tokens, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 });

export type EmbeddingsSettings = Pick<
  Config['embeddings'],
  'apiKey' | 'baseURL' | 'model' | 'dimension' | 'pricePerMTok' | 'requestTimeoutMs'
>;

/** The embeddings door as the worker wires it, with its own events (metrics; never the Messages API's slots). */
export interface WiredEmbeddingsGateway extends EmbeddingsGateway {
  readonly events: GatewayEvents;
}

export interface EmbeddingsGatewayDeps {
  settings: EmbeddingsSettings;
  log: Logger;
  /** The embeddings provider's own budget (one pool, named after the model); none: calls go straight out. */
  budget?: TokenBudget;
  events?: GatewayEvents;
  fetch?: typeof fetch;
  now?: () => number;
  random?: () => number;
}

interface EmbeddingsBody {
  data?: Array<{ embedding?: unknown; index?: unknown }>;
  model?: unknown;
  usage?: { total_tokens?: unknown };
}

/**
 * Voyage AI's `POST /v1/embeddings` behind the same gateway as the Messages API, as a metered call
 * (gateway/metered-call.ts): reserve the estimate from the embeddings budget, call, settle to the billed
 * `total_tokens`, pause the fleet's embeddings on a 429 for its `retry-after`, and report the call (model label,
 * cost) like any other. No retries here: Temporal retries.
 */
export function createEmbeddingsGateway(deps: EmbeddingsGatewayDeps): WiredEmbeddingsGateway {
  const { settings, log } = deps;
  const doFetch = deps.fetch ?? fetch;
  const events = deps.events ?? new GatewayEvents((error) => log.error({ err: error }, 'gateway listener failed'));
  const estimator = new InputTokenEstimator();
  const model = settings.model;
  const price = { [model]: { inputPerMTok: settings.pricePerMTok, outputPerMTok: 0 } };
  const door: MeteredDoor = {
    budget: deps.budget,
    events,
    log,
    now: deps.now ?? Date.now,
    random: deps.random ?? Math.random,
    prices: price,
    requestTimeoutMs: settings.requestTimeoutMs,
    toTypedError: toEmbeddingsError,
    failureMessage: 'embeddings call failed',
  };

  return {
    events,
    embed(request) {
      const characters = request.inputs.reduce((sum, input) => sum + input.length, 0);
      return meteredCall(
        door,
        { jobId: request.jobId, model, priority: request.priority },
        { input: estimator.estimate(model, characters), output: 0, requests: 1 },
        {
          send: (signal) =>
            doFetch(`${settings.baseURL.replace(/\/$/, '')}/v1/embeddings`, {
              method: 'POST',
              headers: { authorization: `Bearer ${settings.apiKey.reveal()}`, 'content-type': 'application/json' },
              body: JSON.stringify({ input: request.inputs, model, input_type: request.inputType, output_dimension: settings.dimension }),
              signal,
            }),
          refusalOf: (response, body) => ({
            error: new EmbeddingsHttpError(response.status, response.headers, detailOf(body)),
            rateLimited: response.status === 429,
          }),
          read(body) {
            const answer = JSON.parse(body) as EmbeddingsBody;
            const tokens = Number(answer.usage?.total_tokens ?? 0);
            estimator.learn(model, characters, tokens);
            return {
              billed: tokens,
              // Billed even when the answer is unusable; a malformed one is the provider's fault, so it may be retried.
              value: () => ({
                vectors: vectorsOf(answer, request.inputs.length),
                model,
                // Embeddings have no prompt cache: both cache counts are 0.
                usage: { ...EMBEDDING_TOKENS(tokens), costUsd: costOf(EMBEDDING_TOKENS(tokens), price[model]) },
              }),
            };
          },
        },
        request.signal,
      );
    },
  };
}

function detailOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { detail?: unknown };
    if (typeof parsed.detail === 'string') return parsed.detail;
  } catch {
    // Not JSON (a proxy's error page): the start of the text says enough.
  }
  return text.slice(0, 300);
}

/** The vectors in input order (the provider answers with an `index` per item), checked for count and shape. */
function vectorsOf(body: EmbeddingsBody, expected: number): number[][] {
  const items = Array.isArray(body.data) ? body.data : [];
  const vectors = new Array<number[] | undefined>(expected);
  for (const item of items) {
    const index = typeof item.index === 'number' ? item.index : -1;
    if (index >= 0 && index < expected && Array.isArray(item.embedding)) vectors[index] = item.embedding as number[];
  }
  if (items.length !== expected || vectors.some((vector) => vector === undefined)) {
    throw new EmbeddingsHttpError(502, new Headers(), `expected ${expected} embeddings, got ${items.length}`);
  }
  return vectors as number[][];
}
