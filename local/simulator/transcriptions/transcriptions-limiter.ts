import type { Clock } from '../clock';
import { TokenBucket } from '../token-bucket';

export interface TranscriptionLimits {
  audioSecondsPerMinute: number;
  concurrentRequests: number;
}

export type TranscriptionAdmission =
  | { admitted: true; release: () => void }
  | { admitted: false; limit: 'audio_seconds' | 'concurrency'; retryAfterSeconds: number };

/**
 * The transcription endpoint's own limits: audio seconds per minute (a refilling bucket, charged the recording's
 * whole duration when it is admitted) and requests in flight at once, apart from the Messages API's and the
 * embeddings' limits.
 */
export class TranscriptionsLimiter {
  private readonly seconds: TokenBucket;
  private inFlight = 0;

  constructor(
    private limits: TranscriptionLimits,
    clock: Clock,
  ) {
    this.seconds = new TokenBucket(limits.audioSecondsPerMinute, clock);
  }

  admit(durationSeconds: number): TranscriptionAdmission {
    if (this.inFlight >= this.limits.concurrentRequests) {
      // No clock says when a request ends: a second is the provider's usual answer.
      return { admitted: false, limit: 'concurrency', retryAfterSeconds: 1 };
    }
    const waitMs = this.seconds.msUntil(durationSeconds);
    if (waitMs > 0) {
      return {
        admitted: false,
        limit: 'audio_seconds',
        retryAfterSeconds: Number.isFinite(waitMs) ? Math.max(1, Math.ceil(waitMs / 1000)) : 60,
      };
    }
    this.seconds.take(durationSeconds);
    this.inFlight += 1;
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (!released) this.inFlight -= 1;
        released = true;
      },
    };
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  resize(limits: TranscriptionLimits): void {
    this.limits = limits;
    this.seconds.resize(limits.audioSecondsPerMinute);
  }

  refillAll(): void {
    this.seconds.refillCompletely();
  }
}
