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

/** The token bucket with the least headroom now (smallest remaining ÷ limit): what the provider's `tokens-*` set reports. */
function mostRestrictive(a: BucketState, b: BucketState): BucketState {
  return b.remaining / b.limit < a.remaining / a.limit ? b : a;
}

/**
 * The `anthropic-ratelimit-*` headers. The `tokens-*` set repeats whichever token limit is most restrictive now,
 * as the provider documents it (platform.claude.com/docs/en/api/rate-limits), with its remaining
 * rounded to the nearest thousand. The input and output remaining are exact here.
 */
export function rateLimitHeaders(snapshot: RateLimitSnapshot): Record<string, string> {
  const tokens = mostRestrictive(snapshot.input_tokens, snapshot.output_tokens);
  return {
    ...group('requests', snapshot.requests),
    ...group('input-tokens', snapshot.input_tokens),
    ...group('output-tokens', snapshot.output_tokens),
    ...group('tokens', { ...tokens, remaining: Math.round(tokens.remaining / 1000) * 1000 }),
  };
}
