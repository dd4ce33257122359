import type { ModelPrice } from '../lib/config';

export interface TokenUsage {
  /** Input tokens read fresh (after the last cache breakpoint, or all of them without caching). */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens written to the prompt cache by this call. */
  cacheCreationInputTokens?: number;
  /** Input tokens read from the prompt cache by this call. */
  cacheReadInputTokens?: number;
}

/** The provider's multipliers on the input price (5-minute cache write, cache read), when a price omits its own. */
const CACHE_WRITE_FACTOR = 1.25;
const CACHE_READ_FACTOR = 0.1;

/**
 * Cost in USD of one call, each kind of token at its own price; an unknown model costs 0 and is reported so the
 * price table gets fixed.
 */
export function costOf(usage: TokenUsage, price: ModelPrice | undefined): number {
  if (!price) return 0;
  const cacheWrite = price.cacheWritePerMTok ?? price.inputPerMTok * CACHE_WRITE_FACTOR;
  const cacheRead = price.cacheReadPerMTok ?? price.inputPerMTok * CACHE_READ_FACTOR;
  return (
    (usage.inputTokens * price.inputPerMTok +
      usage.outputTokens * price.outputPerMTok +
      (usage.cacheCreationInputTokens ?? 0) * cacheWrite +
      (usage.cacheReadInputTokens ?? 0) * cacheRead) /
    1_000_000
  );
}

/** The Message Batches API bills every token kind at half the list price (https://platform.claude.com/docs/en/build-with-claude/batch-processing#pricing). */
export const BATCH_PRICE_FACTOR = 0.5;
