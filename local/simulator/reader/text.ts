/**
 * Document text as lines the field readers can scan: line breaks unified, the non-breaking and
 * thin spaces PDFs use inside numbers and dates turned into plain spaces, typographic apostrophes
 * made plain, trailing blanks dropped.
 */
export function toLines(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u00a0\u2007\u202f\t]/g, ' ')
    .replace(/[\u2018\u2019]/g, "'")
    .split('\n')
    .map((line) => line.trimEnd());
}

/**
 * A regex alternative that matches as a whole word in any script (JS `\b` only knows ASCII letters).
 * A digit may touch the word's start: PDF extraction glues right-aligned values to the next label
 * ("993548900Factuurnummer:").
 */
export function wordPattern(alternatives: readonly string[], flags = 'giu'): RegExp {
  return new RegExp(`(?<![\\p{L}])(?:${alternatives.join('|')})(?![\\p{L}])`, flags);
}

/**
 * A label pattern: like `wordPattern` but without the check before the word, which `findLabels`
 * makes in code so it can also accept labels glued to an all-caps word ("TTCSomme à payer").
 */
export function labelPattern(alternatives: readonly string[], suffix = ''): RegExp {
  return new RegExp(`(?:${alternatives.join('|')})(?![\\p{L}])${suffix}`, 'giu');
}
