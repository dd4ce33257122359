/**
 * How sure the reader is, by how it found a value. Slowlane posts an invoice only when every
 * required field is at least 0.9, so the scale is drawn around that line: values anchored by a clear
 * label sit above it, anything guessed, inferred or contradicted sits below, and a value the
 * document does not show is null with 0.
 */
export const CONFIDENCE = {
  /** "Invoice number: 123" — label and value on one line, in reading order. */
  labelledSameLine: 0.97,
  /** "123Invoice number:" — PDF text extraction often puts a right-aligned value before its label. */
  labelledBefore: 0.93,
  /** A label alone on its line and the value alone on the next. */
  labelledNextLine: 0.93,
  /** A weak label ("#", the word "Invoice" in a sentence) or a label with a value whose extent is unclear. */
  weakLabel: 0.8,
  /** Read from a row of several numbers, or derived from other fields. */
  inferred: 0.7,
  /** No label at all: the first date, the largest amount, the top line. */
  guessed: 0.5,
  /** Several anchored candidates disagree; the reader picks one but a person must check. */
  conflict: 0.55,
  /** Nothing found. */
  absent: 0,
} as const;

export interface FieldResult<T> {
  value: T | null;
  confidence: number;
}

export interface Candidate<T> {
  value: T;
  confidence: number;
}

export const ABSENT: FieldResult<never> = { value: null, confidence: CONFIDENCE.absent };

/**
 * One value from several candidates. Agreeing candidates keep the best confidence; disagreeing ones
 * cap it at `conflict` (the most confident, then most frequent, value is kept for the reviewer).
 */
export function settle<T>(candidates: ReadonlyArray<Candidate<T>>, key: (value: T) => string = String): FieldResult<T> {
  const groups = new Map<string, { value: T; best: number; count: number }>();
  for (const candidate of candidates) {
    const id = key(candidate.value);
    const group = groups.get(id);
    if (group) {
      group.best = Math.max(group.best, candidate.confidence);
      group.count += 1;
    } else {
      groups.set(id, { value: candidate.value, best: candidate.confidence, count: 1 });
    }
  }
  const ranked = [...groups.values()].sort((a, b) => b.best - a.best || b.count - a.count);
  const winner = ranked[0];
  if (!winner) return ABSENT;
  const confidence = ranked.length > 1 ? Math.min(winner.best, CONFIDENCE.conflict) : winner.best;
  return { value: winner.value, confidence };
}
