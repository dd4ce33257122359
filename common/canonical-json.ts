/**
 * JSON with object keys sorted at every depth, so two values that differ only in key order (which JSON gives no
 * meaning) are one text: one review decision is one Update id however a client ordered its keys, one ledger
 * body one hash. Array order is kept: it is meaningful (line items). `undefined` members are left out, as
 * JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value)) ?? 'null';
}

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties, so a "__proto__" key stays data instead of becoming a prototype.
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, item]) => [key, sortKeysDeep(item)]));
}
