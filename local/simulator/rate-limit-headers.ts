import type { BucketState, RateLimitSnapshot } from './rate-limiter';

/** RFC 3339 in whole seconds (rounded up, so a client waiting until then is never early), as the provider sends. */
export function rfc3339(epochMs: number): string {
  return new Date(Math.ceil(epochMs / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function group(prefix: string, state: BucketState): Record<string, string> {
  return {
    [`anthropic-ratelimit-${prefix}-limit`]: String(state.limit),
    [`anthropic-ratelimit-${prefix}-remaining`]: String(state.remaining),
    [`anthropic-ratelimit-${prefix}-reset`]: rfc3339(state.resetAt),
  };
}

/**
 * The `anthropic-ratelimit-*` headers. The combined `tokens-*` group is input + output, with
 * remaining rounded to the nearest thousand like the provider's (FACTS.md §2.1).
 */
export function rateLimitHeaders(snapshot: RateLimitSnapshot): Record<string, string> {
  const combined: BucketState = {
    limit: snapshot.input_tokens.limit + snapshot.output_tokens.limit,
    remaining: Math.round((snapshot.input_tokens.remaining + snapshot.output_tokens.remaining) / 1000) * 1000,
    resetAt: Math.max(snapshot.input_tokens.resetAt, snapshot.output_tokens.resetAt),
  };
  return {
    ...group('requests', snapshot.requests),
    ...group('input-tokens', snapshot.input_tokens),
    ...group('output-tokens', snapshot.output_tokens),
    ...group('tokens', combined),
  };
}
