export interface AmountMatch {
  value: number;
  index: number;
  end: number;
  /** "1,234" or "54.910": one separator and three digits, read as thousands but could be decimals. */
  ambiguous: boolean;
  /** Written with decimals ("12.50", "717,97"), as money usually is. */
  hasDecimals: boolean;
}

const GRAMMARS: ReadonlyArray<{ pattern: RegExp; parse: (raw: string) => number; ambiguous?: boolean }> = [
  { pattern: /^\d+$/, parse: Number },
  { pattern: /^\d+[.,]\d{1,2}$/, parse: (raw) => Number(raw.replace(',', '.')) },
  { pattern: /^\d{1,3}(?:,\d{3})+\.\d{1,2}$/, parse: (raw) => Number(raw.replace(/,/g, '')) },
  { pattern: /^\d{1,3}(?:\.\d{3})+,\d{1,2}$/, parse: (raw) => Number(raw.replace(/\./g, '').replace(',', '.')) },
  { pattern: /^\d{1,3}(?:([.,])\d{3})(?:\1\d{3})+$/, parse: (raw) => Number(raw.replace(/[.,]/g, '')) },
  { pattern: /^\d{1,3}[.,]\d{3}$/, parse: (raw) => Number(raw.replace(/[.,]/g, '')), ambiguous: true },
];

/**
 * Reads one number as written on an invoice: 319.00, 717,97, 1,234.50, 1.234,50, 3.441.812.
 * Anything else (glued runs like "29.995.0024.99", four decimals) is not an amount at all, which
 * keeps garbled PDF text from turning into confident numbers.
 */
export function parseAmount(raw: string): Omit<AmountMatch, 'index' | 'end'> | null {
  const negative = raw.startsWith('-');
  const digits = negative ? raw.slice(1) : raw;
  for (const grammar of GRAMMARS) {
    if (grammar.pattern.test(digits)) {
      const value = grammar.parse(digits);
      return {
        value: negative ? -value : value,
        ambiguous: grammar.ambiguous ?? false,
        hasDecimals: /[.,]\d{1,2}$/.test(digits),
      };
    }
  }
  return null;
}

/** Runs of digits and separators; a minus counts only when it directly precedes the digits. */
const NUMBER_RUN = /-?\d[\d.,]*/g;

/**
 * Every amount in `text`. Numbers glued to letters before them are identifiers (F63530848134,
 * CA6707), numbers next to "/" are dates or references, and numbers followed by "%" are rates.
 */
export function findAmounts(text: string): AmountMatch[] {
  const amounts: AmountMatch[] = [];
  for (const match of text.matchAll(NUMBER_RUN)) {
    const raw = match[0].replace(/[.,]+$/, '');
    const index = match.index;
    const end = index + raw.length;
    const previous = text[index - 1] ?? ' ';
    if (/[\p{L}_/\d]/u.test(previous)) continue;
    const rest = text.slice(end);
    if (/^\s?%/.test(rest) || rest.startsWith('/')) continue;
    const parsed = parseAmount(raw);
    if (parsed) amounts.push({ ...parsed, index, end });
  }
  return amounts;
}

/** Two amounts the same to the cent (floating point sums differ in the last bits). */
export function sameAmount(a: number, b: number): boolean {
  return Math.abs(a - b) < 0.005;
}

export function roundCents(value: number): number {
  return Math.round(value * 100) / 100;
}
