import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import type { Clock } from '../../local/simulator/clock';
import { rateLimitHeaders } from '../../local/simulator/rate-limit-headers';
import { RateLimiter } from '../../local/simulator/rate-limiter';
import { TokenBucket } from '../../local/simulator/token-bucket';

class ManualClock implements Clock {
  constructor(private ms = 1_700_000_000_000) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

describe('TokenBucket', () => {
  test('when new, then it holds its whole per-minute capacity', () => {
    const bucket = new TokenBucket(600, new ManualClock());
    assert.equal(bucket.available(), 600);
  });

  test('when drained, then it refills capacity/60 per second and stops at capacity', () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(600, clock);
    bucket.take(600);
    clock.advance(1000);
    assert.equal(bucket.available(), 10);
    clock.advance(30_000);
    assert.equal(bucket.available(), 310);
    clock.advance(600_000);
    assert.equal(bucket.available(), 600);
  });

  test('when overdrawn, then the level goes negative and msUntil(0) is the time to climb back', () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(60, clock);
    bucket.take(90);
    assert.equal(bucket.available(), -30);
    assert.equal(bucket.msUntil(0), 30_000);
  });

  test('when asked for more than its capacity, then it can never admit it', () => {
    const bucket = new TokenBucket(100, new ManualClock());
    assert.equal(bucket.msUntil(101), Number.POSITIVE_INFINITY);
  });

  test('when resized, then the 40 tokens already used stay used', () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(100, clock);
    bucket.take(40);
    bucket.resize(200);
    assert.equal(bucket.available(), 160);
    bucket.resize(50);
    assert.equal(bucket.available(), 10);
  });
});

describe('RateLimiter', () => {
  const limits = { requestsPerMinute: 2, inputTokensPerMinute: 6000, outputTokensPerMinute: 1200 };

  test('when the buckets cover a request, then it is admitted and its request and input tokens are taken', () => {
    const limiter = new RateLimiter(limits, new ManualClock());
    assert.deepEqual(limiter.admit(1000), { admitted: true });
    const snapshot = limiter.snapshot();
    assert.equal(snapshot.requests.remaining, 1);
    assert.equal(snapshot.input_tokens.remaining, 5000);
    assert.equal(snapshot.output_tokens.remaining, 1200);
  });

  test('when requests run out, then a 429 says how long until one more request refills', () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(limits, clock);
    limiter.admit(10);
    limiter.admit(10);
    clock.advance(10_000); // 2 rpm refills one request every 30 s
    const rejected = limiter.admit(10);
    assert.deepEqual(rejected, { admitted: false, limit: 'requests', retryAfterSeconds: 20, exceedsLimit: false });
    clock.advance(20_000);
    assert.deepEqual(limiter.admit(10), { admitted: true });
  });

  test('when input tokens run short, then retry-after is the refill time for the missing tokens, rounded up', () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ ...limits, requestsPerMinute: 100 }, clock);
    limiter.admit(5000); // 1000 left, refilling 100/s
    const rejected = limiter.admit(1250);
    assert.deepEqual(rejected, { admitted: false, limit: 'input_tokens', retryAfterSeconds: 3, exceedsLimit: false });
  });

  test('when output tokens overdraw the bucket, then the next request waits until it is back to zero', () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter({ ...limits, requestsPerMinute: 100 }, clock);
    assert.deepEqual(limiter.admit(10), { admitted: true });
    limiter.chargeOutput(1500); // 300 over; refills 20/s
    const rejected = limiter.admit(10);
    assert.deepEqual(rejected, { admitted: false, limit: 'output_tokens', retryAfterSeconds: 15, exceedsLimit: false });
    clock.advance(15_000);
    assert.deepEqual(limiter.admit(10), { admitted: true });
  });

  test('when several buckets block, then the longest wait is reported', () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(limits, clock);
    limiter.admit(6000);
    limiter.admit(0);
    clock.advance(1000);
    // Requests need 29 s more (one per 30 s); 4000 input tokens at 100/s need 39 s more.
    const rejected = limiter.admit(4000);
    assert.deepEqual(rejected, { admitted: false, limit: 'input_tokens', retryAfterSeconds: 39, exceedsLimit: false });
  });

  test('when one request needs more input tokens than a minute allows, then it is told to wait a full minute', () => {
    const limiter = new RateLimiter(limits, new ManualClock());
    assert.deepEqual(limiter.admit(6001), {
      admitted: false,
      limit: 'input_tokens',
      retryAfterSeconds: 60,
      exceedsLimit: true,
    });
  });

  test('when rejected, then nothing is taken from the buckets', () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(limits, clock);
    limiter.admit(5000);
    limiter.admit(5000);
    assert.equal(limiter.snapshot().input_tokens.remaining, 1000);
    assert.equal(limiter.snapshot().requests.remaining, 1);
  });

  test('when buckets are partly used, then reset times are when each is full again', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(limits, clock);
    limiter.admit(3000);
    const snapshot = limiter.snapshot();
    assert.equal(snapshot.requests.resetAt, 30_000);
    assert.equal(snapshot.input_tokens.resetAt, 30_000);
    assert.equal(snapshot.output_tokens.resetAt, 0);
  });
});

describe('rate-limit headers (platform.claude.com/docs/en/api/rate-limits)', () => {
  test('when buckets are partly used, then each group has limit, remaining and an RFC 3339 reset no earlier than the refill', () => {
    const clock = new ManualClock(Date.UTC(2024, 0, 1));
    const limiter = new RateLimiter({ requestsPerMinute: 50, inputTokensPerMinute: 40_000, outputTokensPerMinute: 8_000 }, clock);
    limiter.admit(1_250);
    limiter.chargeOutput(200);
    clock.advance(300);
    const headers = rateLimitHeaders(limiter.snapshot());
    assert.equal(headers['anthropic-ratelimit-requests-limit'], '50');
    assert.equal(headers['anthropic-ratelimit-requests-remaining'], '49');
    // 50 rpm refill one request per 1.2 s; 0.25 of it came back in 300 ms, 0.9 s are left: the reset rounds up.
    assert.equal(headers['anthropic-ratelimit-requests-reset'], '2024-01-01T00:00:02Z');
    assert.equal(headers['anthropic-ratelimit-input-tokens-limit'], '40000');
    assert.equal(headers['anthropic-ratelimit-input-tokens-remaining'], '38950');
    assert.equal(headers['anthropic-ratelimit-output-tokens-remaining'], '7840');
    // The tokens-* set repeats the most restrictive token bucket (input: 97.4 % left against output's 98 %),
    // its remaining rounded to the nearest thousand.
    assert.equal(headers['anthropic-ratelimit-tokens-limit'], '40000');
    assert.equal(headers['anthropic-ratelimit-tokens-remaining'], '39000');
    assert.equal(headers['anthropic-ratelimit-tokens-reset'], headers['anthropic-ratelimit-input-tokens-reset']);
    assert.equal(headers['anthropic-ratelimit-input-tokens-reset'], '2024-01-01T00:00:02Z');
  });

  test('when output tokens overdraw their bucket, then remaining says 0, never a negative number', () => {
    const limiter = new RateLimiter({ requestsPerMinute: 50, inputTokensPerMinute: 40_000, outputTokensPerMinute: 8_000 }, new ManualClock());
    limiter.chargeOutput(9_000);
    assert.equal(rateLimitHeaders(limiter.snapshot())['anthropic-ratelimit-output-tokens-remaining'], '0');
  });
});
