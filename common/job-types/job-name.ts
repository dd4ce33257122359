import type { ReviewerView } from './job-type';

/** Longer names are cut: a name is for a person scanning a list, and it travels in every job's memo. */
const NAME_MAX_CHARS = 200;

/** The value at a dot-separated path (`customer.accountAgeDays`), or undefined where the path leads nowhere. */
export function valueAt(source: unknown, path: string): unknown {
  let value: unknown = source;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** What a JSON job is called: the input's value at its type's `namedBy` (an order's id), when it has one. */
export function nameFromInput(view: Pick<ReviewerView, 'namedBy'>, input: unknown): string | undefined {
  if (view.namedBy === undefined) return undefined;
  const value = valueAt(input, view.namedBy);
  return typeof value === 'string' || typeof value === 'number' ? String(value).slice(0, NAME_MAX_CHARS) : undefined;
}
