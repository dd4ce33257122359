import type { Dimension, PerDimension, ProviderReading } from './budget/bucket-math';

const GROUPS = { input: 'input-tokens', output: 'output-tokens', requests: 'requests' } as const;
const MS_PER_MINUTE = 60_000;
/**
 * The provider writes reset times in whole seconds, so the bucket may be full up to a second before the stated
 * time; its `date` header is whole seconds too (truncated), which adds another second when it is the clock used.
 */
const RESET_ROUNDING_MS = 1_000;
const DATE_ROUNDING_MS = 1_000;

interface GroupHeaders {
  limit?: number;
  remaining?: number;
  /** Epoch ms at which the provider's bucket is full again. */
  resetAt?: number;
}

/**
 * The provider's view of its buckets (platform.claude.com/docs/en/api/rate-limits): `anthropic-ratelimit-{input-tokens,output-tokens,requests,
 * tokens}-{limit,remaining,reset}`. Each reading's `remaining` is the tightest of what the headers prove: the stated
 * remaining, and what the reset time implies for a bucket refilling at limit per minute (full at reset, so
 * `(reset − now) × limit ÷ 60 s` short of full now, less a second for the reset's rounding). The reset matters where
 * remaining is absent or rounded to thousands. The `tokens-*` set describes whichever token limit is most
 * restrictive now; it is applied to the dimension whose limit it repeats, and skipped when that is ambiguous.
 * "Now" is the provider's own clock (its `date` header) when the answer has one, so a skewed worker clock cannot
 * make the reset look nearer or further; `now` (the gateway's clock) only when it has none.
 */
export function providerReadings(headers: Headers | undefined, now: number): Partial<PerDimension<ProviderReading>> {
  const readings: Partial<PerDimension<ProviderReading>> = {};
  if (!headers) return readings;
  const providerDate = timeHeader(headers, 'date');
  const clock = providerDate !== undefined ? { now: providerDate, slackMs: RESET_ROUNDING_MS + DATE_ROUNDING_MS } : { now, slackMs: RESET_ROUNDING_MS };
  const groups = {} as Record<Dimension, GroupHeaders>;
  for (const [dimension, group] of Object.entries(GROUPS) as Array<[Dimension, string]>) {
    groups[dimension] = groupHeaders(headers, group);
  }
  const combined = groupHeaders(headers, 'tokens');
  const combinedFor = tokenDimensionOf(combined, groups);
  for (const dimension of Object.keys(GROUPS) as Dimension[]) {
    const group = groups[dimension];
    const bounds = [remainingBound(group, clock)];
    if (combinedFor === dimension) bounds.push(remainingBound({ ...combined, limit: group.limit }, clock));
    const known = bounds.filter((bound): bound is number => bound !== undefined);
    if (group.limit === undefined && known.length === 0) continue;
    readings[dimension] = {
      ...(group.limit !== undefined ? { limit: group.limit } : {}),
      ...(known.length > 0 ? { remaining: Math.min(...known) } : {}),
    };
  }
  return readings;
}

function groupHeaders(headers: Headers, group: string): GroupHeaders {
  const limit = numberHeader(headers, `anthropic-ratelimit-${group}-limit`);
  const remaining = numberHeader(headers, `anthropic-ratelimit-${group}-remaining`);
  const resetAt = timeHeader(headers, `anthropic-ratelimit-${group}-reset`);
  return {
    ...(limit !== undefined ? { limit } : {}),
    ...(remaining !== undefined ? { remaining } : {}),
    ...(resetAt !== undefined ? { resetAt } : {}),
  };
}

/**
 * The most that can be left in the bucket now, by its remaining and by its reset time; undefined when neither says.
 * A reset more than a minute away means the bucket is overdrawn (a lowered limit keeps what was used, output is
 * charged after the answer), which `remaining` cannot say since it stops at 0: the bound goes below zero then.
 */
function remainingBound(group: GroupHeaders, clock: { now: number; slackMs: number }): number | undefined {
  const bounds: number[] = [];
  if (group.remaining !== undefined) bounds.push(group.remaining);
  if (group.resetAt !== undefined && group.limit !== undefined && group.limit > 0) {
    const msUntilFull = Math.max(0, group.resetAt - clock.now - clock.slackMs);
    bounds.push(group.limit - (msUntilFull * group.limit) / MS_PER_MINUTE);
  }
  return bounds.length > 0 ? Math.min(...bounds) : undefined;
}

/** Which token dimension the `tokens-*` set describes: the one whose limit it repeats, when exactly one does. */
function tokenDimensionOf(combined: GroupHeaders, groups: Record<Dimension, GroupHeaders>): Dimension | undefined {
  if (combined.limit === undefined) return undefined;
  const matches = (['input', 'output'] as const).filter((dimension) => groups[dimension].limit === combined.limit);
  return matches.length === 1 ? matches[0] : undefined;
}

function numberHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  if (value === null || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}

function timeHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  if (value === null || value.trim() === '') return undefined;
  const parsed = Date.parse(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}
