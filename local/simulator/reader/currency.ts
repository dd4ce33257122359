import { CONFIDENCE, type FieldResult } from './confidence';
import { wordPattern } from './text';

/** ISO 4217 codes the reader recognises when written out. */
const CODES = [
  'EUR',
  'USD',
  'GBP',
  'PLN',
  'INR',
  'CHF',
  'JPY',
  'CAD',
  'AUD',
  'SEK',
  'NOK',
  'DKK',
  'CZK',
  'HUF',
  'CNY',
  'NZD',
];

interface Evidence {
  currency: string;
  /** A code or a symbol only one currency uses. */
  certain: boolean;
}

const CODE_PATTERN = new RegExp(`(?<![A-Za-z])(${CODES.join('|')})(?![A-Za-z])`, 'g');
const UNAMBIGUOUS_SYMBOLS: ReadonlyArray<[RegExp, string]> = [
  [/€/g, 'EUR'],
  [/£/g, 'GBP'],
  [/₹/g, 'INR'],
  [wordPattern(['zł', 'złotych', 'zlotych']), 'PLN'],
  [wordPattern(['euros?']), 'EUR'],
];
/** "$" is also CAD, AUD, NZD…; "Rs." is also PKR, LKR, NPR. Only a country named in the text settles them. */
const AMBIGUOUS_SYMBOLS: ReadonlyArray<{ pattern: RegExp; currency: string; country: RegExp; prefixed?: RegExp }> = [
  { pattern: /(?<![A-Za-z])\$/g, currency: 'USD', country: /\b(?:United States|USA|U\.S\.A\.)\b/, prefixed: /US\$/ },
  { pattern: /(?<![A-Za-z])Rs\.?(?=\s*-?\d)/g, currency: 'INR', country: /\bIndia\b/ },
];

function collectEvidence(text: string): { evidence: Evidence[]; countryConfirmed: Set<string> } {
  const evidence: Evidence[] = [];
  const countryConfirmed = new Set<string>();
  for (const match of text.matchAll(CODE_PATTERN)) evidence.push({ currency: match[1] ?? '', certain: true });
  for (const [pattern, currency] of UNAMBIGUOUS_SYMBOLS) {
    evidence.push(...Array.from(text.matchAll(pattern), () => ({ currency, certain: true })));
  }
  for (const symbol of AMBIGUOUS_SYMBOLS) {
    const count = [...text.matchAll(symbol.pattern)].length;
    for (let index = 0; index < count; index += 1) evidence.push({ currency: symbol.currency, certain: false });
    if (count > 0 && (symbol.country.test(text) || symbol.prefixed?.test(text))) countryConfirmed.add(symbol.currency);
  }
  return { evidence, countryConfirmed };
}

/**
 * The invoice currency from codes and symbols anywhere in the text. One currency named by a code or
 * an unambiguous symbol is certain; "$" or "Rs." alone is a likely guess unless the text names the
 * country; two different currencies are a conflict for a person to settle.
 */
export function readCurrency(text: string): FieldResult<string> {
  const { evidence, countryConfirmed } = collectEvidence(text);
  if (evidence.length === 0) return { value: null, confidence: CONFIDENCE.absent };
  const counts = new Map<string, number>();
  for (const item of evidence) counts.set(item.currency, (counts.get(item.currency) ?? 0) + (item.certain ? 2 : 1));
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const [currency] = ranked[0] ?? ['', 0];
  if (ranked.length > 1) return { value: currency, confidence: CONFIDENCE.conflict };
  if (evidence.some((item) => item.certain)) return { value: currency, confidence: CONFIDENCE.labelledSameLine };
  if (countryConfirmed.has(currency)) return { value: currency, confidence: CONFIDENCE.labelledNextLine };
  return { value: currency, confidence: CONFIDENCE.weakLabel };
}
