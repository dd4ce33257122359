import type { Clock } from '../clock';
import { TokenBucket } from '../token-bucket';

export interface EmbeddingsLimits {
  tokensPerMinute: number;
  requestsPerMinute: number;
}

export type EmbeddingsAdmission = { admitted: true } | { admitted: false; limit: 'TPM' | 'RPM'; retryAfterSeconds: number };

/**
 * The embeddings endpoint's own per-minute limits (Voyage AI counts tokens and requests per model, apart from
 * any other provider), so a document's embeddings cannot starve, or be starved by, the Messages API.
 */
export class EmbeddingsLimiter {
  private readonly tokens: TokenBucket;
  private readonly requests: TokenBucket;

  constructor(limits: EmbeddingsLimits, clock: Clock) {
    this.tokens = new TokenBucket(limits.tokensPerMinute, clock);
    this.requests = new TokenBucket(limits.requestsPerMinute, clock);
  }

  admit(tokens: number): EmbeddingsAdmission {
    const waits = [
      { limit: 'RPM' as const, ms: this.requests.msUntil(1) },
      { limit: 'TPM' as const, ms: this.tokens.msUntil(tokens) },
    ];
    const blocking = waits.filter((wait) => wait.ms > 0).sort((a, b) => b.ms - a.ms)[0];
    if (blocking) {
      const seconds = Number.isFinite(blocking.ms) ? Math.max(1, Math.ceil(blocking.ms / 1000)) : 60;
      return { admitted: false, limit: blocking.limit, retryAfterSeconds: seconds };
    }
    this.requests.take(1);
    this.tokens.take(tokens);
    return { admitted: true };
  }

  resize(limits: EmbeddingsLimits): void {
    this.tokens.resize(limits.tokensPerMinute);
    this.requests.resize(limits.requestsPerMinute);
  }

  refillAll(): void {
    this.tokens.refillCompletely();
    this.requests.refillCompletely();
  }
}
