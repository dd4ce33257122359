/** The lower-case words of a text, without punctuation: what a word error rate compares. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9']+/g) ?? [];
}

export interface WordErrors {
  substitutions: number;
  deletions: number;
  insertions: number;
  /** Words of the reference. */
  words: number;
  /** (S + D + I) ÷ N; above 1 when the hypothesis adds more than the reference has. */
  rate: number;
}

/**
 * The word error rate of `hypothesis` against `reference`: the fewest substitutions, deletions and insertions that
 * turn one into the other (Levenshtein over words), over the reference's word count. Two rows of the table at a
 * time, so an hour's transcript (~9,000 words each side) needs kilobytes, not the full matrix.
 */
export function wordErrorRate(reference: string, hypothesis: string): WordErrors {
  const ref = wordsOf(reference);
  const hyp = wordsOf(hypothesis);
  const width = hyp.length + 1;
  // Per cell: the cost and how many of it are substitutions, deletions, insertions; typed rows, no objects.
  const row = () => ({ cost: new Int32Array(width), s: new Int32Array(width), d: new Int32Array(width), i: new Int32Array(width) });
  // Two rows, swapped: each row is written whole before it is read again.
  let previous = row();
  let current = row();
  for (let h = 0; h < width; h++) previous.cost[h] = previous.i[h] = h;
  for (let r = 1; r <= ref.length; r++) {
    current.cost[0] = current.d[0] = r;
    current.s[0] = current.i[0] = 0;
    for (let h = 1; h < width; h++) {
      const same = ref[r - 1] === hyp[h - 1];
      const diagonal = (previous.cost[h - 1] as number) + (same ? 0 : 1);
      const up = (previous.cost[h] as number) + 1;
      const left = (current.cost[h - 1] as number) + 1;
      if (diagonal <= up && diagonal <= left) {
        current.cost[h] = diagonal;
        current.s[h] = (previous.s[h - 1] as number) + (same ? 0 : 1);
        current.d[h] = previous.d[h - 1] as number;
        current.i[h] = previous.i[h - 1] as number;
      } else if (up <= left) {
        current.cost[h] = up;
        current.s[h] = previous.s[h] as number;
        current.d[h] = (previous.d[h] as number) + 1;
        current.i[h] = previous.i[h] as number;
      } else {
        current.cost[h] = left;
        current.s[h] = current.s[h - 1] as number;
        current.d[h] = current.d[h - 1] as number;
        current.i[h] = (current.i[h - 1] as number) + 1;
      }
    }
    [previous, current] = [current, previous];
  }
  const last = hyp.length;
  const cost = previous.cost[last] as number;
  return {
    substitutions: previous.s[last] as number,
    deletions: previous.d[last] as number,
    insertions: previous.i[last] as number,
    words: ref.length,
    rate: ref.length === 0 ? (hyp.length === 0 ? 0 : 1) : cost / ref.length,
  };
}
