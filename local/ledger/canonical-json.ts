import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so two bodies that differ only in key order (which
 * JSON does not give a meaning) hash the same. Array order is kept: it is meaningful (line items).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value));
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties, so a "__proto__" key stays data instead of becoming a prototype.
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, item]) => [key, sortKeysDeep(item)]));
}
