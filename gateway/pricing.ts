import type { ModelPrice } from '../lib/config';

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Cost in USD of one call; an unknown model costs 0 and is reported so the price table gets fixed. */
export function costOf(usage: TokenUsage, price: ModelPrice | undefined): number {
  if (!price) return 0;
  return (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1_000_000;
}
