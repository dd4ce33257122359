import type { PerDimension, ProviderReading } from './budget/bucket-math';

const GROUPS = { input: 'input-tokens', output: 'output-tokens', requests: 'requests' } as const;

/**
 * The provider's view of its buckets from `anthropic-ratelimit-{input-tokens,output-tokens,requests}-{limit,remaining}`
 * (FACTS.md §2.1). The combined `tokens-*` group is left out: its remaining is rounded to thousands.
 */
export function providerReadings(headers: Headers | undefined): Partial<PerDimension<ProviderReading>> {
  const readings: Partial<PerDimension<ProviderReading>> = {};
  if (!headers) return readings;
  for (const [dimension, group] of Object.entries(GROUPS) as Array<[keyof typeof GROUPS, string]>) {
    const limit = numberHeader(headers, `anthropic-ratelimit-${group}-limit`);
    const remaining = numberHeader(headers, `anthropic-ratelimit-${group}-remaining`);
    if (limit === undefined && remaining === undefined) continue;
    readings[dimension] = {
      ...(limit !== undefined ? { limit } : {}),
      ...(remaining !== undefined ? { remaining } : {}),
    };
  }
  return readings;
}

function numberHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  if (value === null || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}
