import type { Clock } from './clock';

/**
 * A continuously refilling token bucket, the algorithm the provider documents for its per-minute
 * limits: it holds at most `capacity` and refills `capacity / 60` per second, so a burst may use
 * the whole minute's allowance at once and then waits for the refill.
 * The level may go negative (output tokens are charged after the answer), which blocks until refilled.
 */
export class TokenBucket {
  private level: number;
  private updatedAt: number;

  constructor(
    private capacityPerMinute: number,
    private readonly clock: Clock,
  ) {
    this.level = capacityPerMinute;
    this.updatedAt = clock.now();
  }

  get capacity(): number {
    return this.capacityPerMinute;
  }

  private get refillPerMs(): number {
    return this.capacityPerMinute / 60_000;
  }

  private refill(): void {
    const now = this.clock.now();
    const elapsed = Math.max(0, now - this.updatedAt);
    this.level = Math.min(this.capacityPerMinute, this.level + elapsed * this.refillPerMs);
    this.updatedAt = now;
  }

  available(): number {
    this.refill();
    return this.level;
  }

  /** Milliseconds until the bucket holds `amount`; 0 when it does now, Infinity when it never can. */
  msUntil(amount: number): number {
    this.refill();
    if (this.level >= amount) return 0;
    if (amount > this.capacityPerMinute) return Number.POSITIVE_INFINITY;
    return (amount - this.level) / this.refillPerMs;
  }

  msUntilFull(): number {
    return this.msUntil(this.capacityPerMinute);
  }

  /** Removes `amount` even if that leaves the level below zero. */
  take(amount: number): void {
    this.refill();
    this.level -= amount;
  }

  /**
   * A new limit keeps what has been used: a full bucket stays full, an overdrawn one stays overdrawn. Answers what
   * the level gained (negative: lost), which a benchmark needs to know what the provider offered.
   */
  resize(capacityPerMinute: number): number {
    this.refill();
    const before = this.level;
    this.level = Math.min(capacityPerMinute, this.level + (capacityPerMinute - this.capacityPerMinute));
    this.capacityPerMinute = capacityPerMinute;
    return this.level - before;
  }

  refillCompletely(): void {
    this.level = this.capacityPerMinute;
    this.updatedAt = this.clock.now();
  }
}
