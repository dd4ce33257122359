import type { Clock } from './clock';
import { TokenBucket } from './token-bucket';

export interface RateLimits {
  requestsPerMinute: number;
  inputTokensPerMinute: number;
  outputTokensPerMinute: number;
}

export type LimitName = 'requests' | 'input_tokens' | 'output_tokens';

export type Admission =
  | { admitted: true }
  | {
      admitted: false;
      /** The bucket that makes the caller wait longest. */
      limit: LimitName;
      /** Whole seconds, rounded up, until that bucket could admit the request. */
      retryAfterSeconds: number;
      /** The request needs more input tokens than a whole minute allows; waiting will not help. */
      exceedsLimit: boolean;
    };

export interface BucketState {
  limit: number;
  remaining: number;
  /** Epoch ms at which the bucket is full again. */
  resetAt: number;
}

export type RateLimitSnapshot = Record<LimitName, BucketState>;

/** A request too big for the input bucket is told to wait a full minute, as the provider does. */
const OVERSIZED_RETRY_AFTER_SECONDS = 60;

/**
 * Requests, input tokens and output tokens per minute, one bucket each (per simulator, not per model).
 * Admission takes the request and its input tokens up front; output tokens are charged once the
 * answer exists, because only then is their number known.
 */
export class RateLimiter {
  private readonly buckets: Record<LimitName, TokenBucket>;

  constructor(
    limits: RateLimits,
    private readonly clock: Clock,
  ) {
    this.buckets = {
      requests: new TokenBucket(limits.requestsPerMinute, clock),
      input_tokens: new TokenBucket(limits.inputTokensPerMinute, clock),
      output_tokens: new TokenBucket(limits.outputTokensPerMinute, clock),
    };
  }

  admit(inputTokens: number): Admission {
    const waits: Array<{ limit: LimitName; ms: number }> = [
      { limit: 'requests', ms: this.buckets.requests.msUntil(1) },
      { limit: 'input_tokens', ms: this.buckets.input_tokens.msUntil(inputTokens) },
      // Output is charged after the fact, so only an overdrawn (negative) bucket blocks.
      { limit: 'output_tokens', ms: this.buckets.output_tokens.msUntil(0) },
    ];
    const blocking = waits.filter((wait) => wait.ms > 0).sort((a, b) => b.ms - a.ms)[0];
    if (blocking) {
      const exceedsLimit = !Number.isFinite(blocking.ms);
      const seconds = exceedsLimit ? OVERSIZED_RETRY_AFTER_SECONDS : Math.max(1, Math.ceil(blocking.ms / 1000));
      return { admitted: false, limit: blocking.limit, retryAfterSeconds: seconds, exceedsLimit };
    }
    this.buckets.requests.take(1);
    this.buckets.input_tokens.take(inputTokens);
    return { admitted: true };
  }

  chargeOutput(outputTokens: number): void {
    this.buckets.output_tokens.take(outputTokens);
  }

  snapshot(): RateLimitSnapshot {
    const now = this.clock.now();
    const state = (bucket: TokenBucket): BucketState => ({
      limit: bucket.capacity,
      remaining: Math.max(0, Math.floor(bucket.available())),
      resetAt: now + bucket.msUntilFull(),
    });
    return {
      requests: state(this.buckets.requests),
      input_tokens: state(this.buckets.input_tokens),
      output_tokens: state(this.buckets.output_tokens),
    };
  }

  /** New limits; answers what each bucket's level gained (negative: lost) with them. */
  resize(limits: RateLimits): Record<LimitName, number> {
    return {
      requests: this.buckets.requests.resize(limits.requestsPerMinute),
      input_tokens: this.buckets.input_tokens.resize(limits.inputTokensPerMinute),
      output_tokens: this.buckets.output_tokens.resize(limits.outputTokensPerMinute),
    };
  }

  /** Each bucket's exact level, below zero when overdrawn (the headers never say less than 0). */
  levels(): Record<LimitName, number> {
    return {
      requests: this.buckets.requests.available(),
      input_tokens: this.buckets.input_tokens.available(),
      output_tokens: this.buckets.output_tokens.available(),
    };
  }

  refillAll(): void {
    for (const bucket of Object.values(this.buckets)) bucket.refillCompletely();
  }
}
