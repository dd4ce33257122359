import { MONTH_NAME_PATTERN, monthNumber } from './month-names';

/** Day-month or month-day, for numeric dates like 03/04/2023 that could be either. */
export type DayMonthOrder = 'dmy' | 'mdy';

export interface DateMatch {
  /** YYYY-MM-DD */
  iso: string;
  index: number;
  end: number;
  /** Both readings are valid dates and the order was taken from a hint, not from the date itself. */
  orderAssumed: boolean;
  /** For numeric dates: what the digits themselves prove about the order, if anything. */
  provenOrder: DayMonthOrder | null;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function toIso(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const NOT_DIGIT_BEFORE = '(?<![\\d.,/-])';
const NOT_DIGIT_AFTER = '(?![\\d])';
const ISO_DATE = new RegExp(`${NOT_DIGIT_BEFORE}(\\d{4})([-/.])(\\d{1,2})\\2(\\d{1,2})${NOT_DIGIT_AFTER}`, 'g');
const NUMERIC_DATE = new RegExp(`${NOT_DIGIT_BEFORE}(\\d{1,2})([-/.])(\\d{1,2})\\2(\\d{4})${NOT_DIGIT_AFTER}`, 'g');
const DAY_MONTH_NAME = new RegExp(
  `(?<![\\p{L}\\d])(\\d{1,2})(?:st|nd|rd|th|er|\\.)?\\s+(${MONTH_NAME_PATTERN})\\.?,?\\s+(\\d{4})${NOT_DIGIT_AFTER}`,
  'giu',
);
const MONTH_NAME_DAY = new RegExp(
  `(?<![\\p{L}])(${MONTH_NAME_PATTERN})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})${NOT_DIGIT_AFTER}`,
  'giu',
);

function numericDate(
  first: number,
  second: number,
  year: number,
  hint: DayMonthOrder,
): Omit<DateMatch, 'index' | 'end'> | null {
  const asDmy = toIso(year, second, first);
  const asMdy = toIso(year, first, second);
  if (asDmy && asMdy && asDmy !== asMdy) {
    return { iso: hint === 'dmy' ? asDmy : asMdy, orderAssumed: true, provenOrder: null };
  }
  if (asDmy) return { iso: asDmy, orderAssumed: false, provenOrder: asMdy ? null : 'dmy' };
  if (asMdy) return { iso: asMdy, orderAssumed: false, provenOrder: 'mdy' };
  return null;
}

/**
 * Every date in `text`, in order: 2021-01-01, 28/11/2022, 8-9-2022, 15.03.2024, Jan 1, 2022,
 * 18 april 2014, 02 Juillet 2015, 12 stycznia 2021. Numeric day/month order follows the digits when
 * they prove it (20/03 can only be day-month) and `hint` otherwise, flagged as assumed.
 */
export function findDates(text: string, hint: DayMonthOrder = 'dmy'): DateMatch[] {
  const found: DateMatch[] = [];
  const push = (index: number, length: number, date: Omit<DateMatch, 'index' | 'end'> | null): void => {
    const overlaps = found.some((other) => index < other.end && index + length > other.index);
    if (date && !overlaps) found.push({ ...date, index, end: index + length });
  };
  for (const m of text.matchAll(ISO_DATE)) {
    push(m.index, m[0].length, withOrder(toIso(Number(m[1]), Number(m[3]), Number(m[4]))));
  }
  for (const m of text.matchAll(NUMERIC_DATE)) {
    push(m.index, m[0].length, numericDate(Number(m[1]), Number(m[3]), Number(m[4]), hint));
  }
  for (const m of text.matchAll(DAY_MONTH_NAME)) {
    push(m.index, m[0].length, withOrder(toIso(Number(m[3]), monthNumber(m[2] ?? '') ?? 0, Number(m[1]))));
  }
  for (const m of text.matchAll(MONTH_NAME_DAY)) {
    push(m.index, m[0].length, withOrder(toIso(Number(m[3]), monthNumber(m[1] ?? '') ?? 0, Number(m[2]))));
  }
  return found.sort((a, b) => a.index - b.index);
}

function withOrder(iso: string | null): Omit<DateMatch, 'index' | 'end'> | null {
  return iso ? { iso, orderAssumed: false, provenOrder: null } : null;
}

/**
 * The day/month order a document uses: proven by one of its own numeric dates when possible, else
 * guessed from its language (US-style month-first only for English with dollars).
 */
export function dayMonthOrderOf(text: string): { order: DayMonthOrder; proven: boolean } {
  const proven = findDates(text)
    .map((date) => date.provenOrder)
    .filter((order) => order !== null);
  if (proven.length > 0 && proven.every((order) => order === proven[0])) return { order: proven[0]!, proven: true };
  const usStyle = /\$/.test(text) && /\b(?:invoice|total|due|amount)\b/i.test(text);
  return { order: usStyle ? 'mdy' : 'dmy', proven: false };
}
