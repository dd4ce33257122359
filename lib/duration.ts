const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration as parseDurationMs reads it, untrimmed: what an API parameter of a duration may be. */
export const DURATION_PATTERN = /^(?:\d+|(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+)$/;

/** Parses '48h', '90s', '1500ms', '7d', '1h30m' into milliseconds; undefined when malformed. */
export function parseDurationMs(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== trimmed) return undefined;
  return parts.reduce((total, [, amount, unit]) => total + Number(amount) * (UNIT_MS[unit as string] ?? 0), 0);
}
