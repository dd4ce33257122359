/**
 * A `--name` value that must be a whole number ≥ 0, or the fallback when absent; a bad one stops the bench with
 * its usage text.
 */
export function wholeNumberFlag(value: string | undefined, fallback: number, name: string, usage: string): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`--${name} must be a whole number\n${usage}`);
  return parsed;
}
