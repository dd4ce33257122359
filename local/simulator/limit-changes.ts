import { ConfigError } from '../../lib/settings/config-error';
import type { LimitName, RateLimits } from './rate-limiter';

/**
 * The Messages API's limits moving at run time, as when another application starts spending on the same
 * organisation key: lowered and restored through `/_sim/limits`, each change recorded with what it did to the
 * buckets, so a benchmark can integrate the ceiling the provider really offered over time.
 */

export interface LimitChange {
  /** Epoch ms on the simulator's clock. */
  at: number;
  limits: RateLimits;
  /** What each bucket's level gained (negative: lost) with the change; a bucket keeps what was used. */
  levelChange: Record<LimitName, number>;
}

/** Enough for any run; older changes fall off so a simulator left running does not grow. */
const MAX_CHANGES = 1_000;

export class LimitHistory {
  private readonly changes: LimitChange[] = [];

  constructor(readonly startup: RateLimits) {}

  record(change: LimitChange): void {
    this.changes.push(change);
    if (this.changes.length > MAX_CHANGES) this.changes.shift();
  }

  list(): LimitChange[] {
    return [...this.changes];
  }
}

const LIMIT_KEYS = ['requestsPerMinute', 'inputTokensPerMinute', 'outputTokensPerMinute'] as const;

export function sameLimits(a: RateLimits, b: RateLimits): boolean {
  return LIMIT_KEYS.every((key) => a[key] === b[key]);
}

/**
 * A `PUT /_sim/limits` body: `{ scale }` (0 < scale ≤ 10) multiplies every start-up limit, rounded to a whole
 * number of at least 1; or any of the three limits as whole numbers ≥ 1. Throws ConfigError otherwise.
 */
export function parseLimitsPatch(body: unknown, startup: RateLimits): Partial<RateLimits> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ConfigError('limits must be a JSON object');
  }
  const entries = Object.entries(body);
  if (entries.length === 0) throw new ConfigError(`give scale or any of ${LIMIT_KEYS.join(', ')}`);
  if ('scale' in body) {
    const { scale } = body as { scale: unknown };
    if (entries.length > 1) throw new ConfigError('scale cannot be combined with limits');
    if (typeof scale !== 'number' || !(scale > 0 && scale <= 10)) throw new ConfigError('scale must be in (0, 10]');
    return Object.fromEntries(LIMIT_KEYS.map((key) => [key, Math.max(1, Math.round(startup[key] * scale))]));
  }
  const patch: Partial<RateLimits> = {};
  for (const [key, value] of entries) {
    if (!(LIMIT_KEYS as readonly string[]).includes(key)) {
      throw new ConfigError(`"${key}" is not a limit; known: scale, ${LIMIT_KEYS.join(', ')}`);
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      throw new ConfigError(`${key} must be a whole number ≥ 1, got ${JSON.stringify(value)}`);
    }
    patch[key as keyof RateLimits] = value;
  }
  return patch;
}
