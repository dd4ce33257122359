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
  type Cell = { cost: number; s: number; d: number; i: number };
  let previous: Cell[] = Array.from({ length: hyp.length + 1 }, (_, j) => ({ cost: j, s: 0, d: 0, i: j }));
  for (let r = 1; r <= ref.length; r++) {
    const current: Cell[] = [{ cost: r, s: 0, d: r, i: 0 }];
    for (let h = 1; h <= hyp.length; h++) {
      const diagonal = previous[h - 1] as Cell;
      const up = previous[h] as Cell;
      const left = current[h - 1] as Cell;
      const same = ref[r - 1] === hyp[h - 1];
      const options: Cell[] = [
        { ...diagonal, cost: diagonal.cost + (same ? 0 : 1), s: diagonal.s + (same ? 0 : 1) },
        { ...up, cost: up.cost + 1, d: up.d + 1 },
        { ...left, cost: left.cost + 1, i: left.i + 1 },
      ];
      current.push(options.reduce((best, option) => (option.cost < best.cost ? option : best)));
    }
    previous = current;
  }
  const last = previous[hyp.length] as Cell;
  return { substitutions: last.s, deletions: last.d, insertions: last.i, words: ref.length, rate: ref.length === 0 ? (hyp.length === 0 ? 0 : 1) : last.cost / ref.length };
}
