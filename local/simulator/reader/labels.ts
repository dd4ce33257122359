export interface LabelHit {
  lineIndex: number;
  /** The label as written. */
  label: string;
  /** Text on the label's line after the label. */
  after: string;
  /** Text on the label's line before the label. */
  before: string;
  /** The following line, when the label's line holds nothing but the label. */
  nextLine: string | null;
}

/** Every occurrence of `pattern` (a global regex) in the lines, with the text around it. */
export function findLabels(
  lines: readonly string[],
  pattern: RegExp,
  skip?: (hit: LabelContext) => boolean,
): LabelHit[] {
  const hits: LabelHit[] = [];
  lines.forEach((line, lineIndex) => {
    for (const match of line.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      const context: LabelContext = { line, start, end, label: match[0] };
      if (!startsWord(line, start) || skip?.(context)) continue;
      const before = line.slice(0, start);
      const after = line.slice(end);
      const alone = before.trim() === '' && after.replace(/^[\s:#.]*/, '') === '';
      hits.push({ lineIndex, label: match[0], after, before, nextLine: alone ? (lines[lineIndex + 1] ?? null) : null });
    }
  });
  return hits;
}

const LETTER = /\p{L}/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;

/**
 * A label starts a word: nothing, a digit or punctuation before it ("993548900Factuurnummer"), or an
 * all-caps word glued to a capitalised label ("TTCSomme", "TTCDate") — how pdf.js joins columns.
 */
function startsWord(line: string, start: number): boolean {
  const previous = line[start - 1];
  if (previous === undefined || !LETTER.test(previous)) return true;
  return UPPER.test(previous) && UPPER.test(line[start] ?? '') && LOWER.test(line[start + 1] ?? '');
}

export interface LabelContext {
  line: string;
  start: number;
  end: number;
  label: string;
}

/** The separators people put between a label and its value: "No.: ", "n° ", "# ", "- ". */
export function stripLabelSeparators(text: string): string {
  return text.replace(/^[\s:#.\-–—°º=]+/u, '');
}
