import type { Config } from '../../lib/config';

/** What one run asked of the provider, from the simulator's own counters: the Messages API and embeddings. */
export interface ProviderDemand {
  messages: { requests: number; inputTokens: number; outputTokens: number };
  embeddings: { requests: number; tokens: number };
}

/** Each limit's share of the time, in seconds: the document cannot finish sooner than the largest. */
export interface QuotaBound {
  seconds: number;
  limitedBy: string;
  byLimit: Record<string, number>;
}

type Limits = Pick<Config, 'gateway' | 'embeddings' | 'document'>;

/**
 * The shortest time the configured per-minute limits allow for what the run asked: each quantity ÷ its limit, the
 * largest of them. A job that took this long ran at the quota's speed; wall ÷ bound is what the product added.
 */
export function quotaBound(demand: ProviderDemand, limits: Limits): QuotaBound {
  // Every model call of a document is the summarising model's: its pool's limits, else the `*` pool's.
  const pool = limits.gateway.pools[limits.document.summarizeModel] ?? limits.gateway.pools['*'];
  if (!pool) throw new Error('the gateway has no pool for the summarising model');
  const minutes: Record<string, number> = {
    'input tokens ÷ ITPM': demand.messages.inputTokens / pool.inputTokensPerMinute,
    'output tokens ÷ OTPM': demand.messages.outputTokens / pool.outputTokensPerMinute,
    'requests ÷ RPM': demand.messages.requests / pool.requestsPerMinute,
    'embedding tokens ÷ EMBEDDINGS_TPM': demand.embeddings.tokens / limits.embeddings.tokensPerMinute,
    'embedding requests ÷ EMBEDDINGS_RPM': demand.embeddings.requests / limits.embeddings.requestsPerMinute,
  };
  const byLimit = Object.fromEntries(Object.entries(minutes).map(([limit, value]) => [limit, value * 60]));
  const [limitedBy, seconds] = Object.entries(byLimit).reduce((a, b) => (b[1] > a[1] ? b : a));
  return { seconds, limitedBy, byLimit };
}

/** The simulator's counters now; two readings around a run give its demand. */
export async function readProviderCounters(simulatorUrl: string): Promise<ProviderDemand> {
  const messages = (await (await fetch(`${simulatorUrl}/_sim/stats`)).json()) as ProviderDemand['messages'];
  const embeddings = (await (await fetch(`${simulatorUrl}/_sim/embeddings/stats`)).json()) as ProviderDemand['embeddings'];
  return {
    messages: { requests: messages.requests, inputTokens: messages.inputTokens, outputTokens: messages.outputTokens },
    embeddings: { requests: embeddings.requests, tokens: embeddings.tokens },
  };
}

export function demandBetween(before: ProviderDemand, after: ProviderDemand): ProviderDemand {
  return {
    messages: {
      requests: after.messages.requests - before.messages.requests,
      inputTokens: after.messages.inputTokens - before.messages.inputTokens,
      outputTokens: after.messages.outputTokens - before.messages.outputTokens,
    },
    embeddings: { requests: after.embeddings.requests - before.embeddings.requests, tokens: after.embeddings.tokens - before.embeddings.tokens },
  };
}
