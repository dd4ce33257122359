import { validateAgainst } from '../validation';
import type { JsonLines } from './job-type';

export type JsonLinesCheck<T> =
  | { ok: true; lines: T[] }
  | { ok: false; kind: 'invalid'; line: number; message: string }
  | { ok: false; kind: 'too_many'; limit: number };

/**
 * Reads a JSONL file: one JSON object per line, blank lines allowed. Stops at the first bad line and names it
 * (1-based), so a client fixes its export without guessing.
 */
export function parseJsonLines(text: string, spec: JsonLines): JsonLinesCheck<unknown> {
  const values: unknown[] = [];
  const seen = new Set<unknown>();
  const rows = text.split('\n');
  for (let index = 0; index < rows.length; index++) {
    const raw = (rows[index] as string).trim();
    if (raw === '') continue;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return { ok: false, kind: 'invalid', line, message: `line ${line} is not JSON (${(error as Error).message})` };
    }
    const checked = validateAgainst(spec.schema, value);
    if (!checked.ok) return { ok: false, kind: 'invalid', line, message: `line ${line}: ${checked.errors.slice(0, 3).join('; ')}` };
    if (spec.uniqueBy !== undefined) {
      const key = (checked.value as Record<string, unknown>)[spec.uniqueBy];
      if (seen.has(key)) return { ok: false, kind: 'invalid', line, message: `line ${line} repeats ${spec.uniqueBy} ${JSON.stringify(key)}` };
      seen.add(key);
    }
    values.push(checked.value);
    if (values.length > spec.maxLines) return { ok: false, kind: 'too_many', limit: spec.maxLines };
  }
  if (values.length === 0) return { ok: false, kind: 'invalid', line: 1, message: 'the file holds no lines: send one JSON object per line' };
  return { ok: true, lines: values };
}
