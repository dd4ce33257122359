import type { InvoiceLineItem } from '../../../common/invoice';
import { PAYABLE_LABELS, SUBTOTAL_LABELS, TAX_LABELS, TOTAL_LABELS } from './amount-labels';
import { findAmounts, sameAmount, type AmountMatch } from './amounts';
import { CONFIDENCE, type FieldResult } from './confidence';
import { findDates } from './dates';
import { findLabels } from './labels';

/** Schema limits (invoice.schema.json): at most 500 items, descriptions up to 500 characters. */
const MAX_ITEMS = 500;
const MAX_DESCRIPTION = 500;

/** What may sit between a row's numbers: currency signs, units, tax rates. */
const ROW_FILLER = /^(?:[\s€$£₹%*x×]|[A-Z]{3}\b|PCS|pcs|kg|g|l|L|Units?|uur|st|szt|zł|\d+(?:[.,]\d+)?\s?%)*$/u;

const ROW_NUMBER = /^\s*\d{1,3}[.)]?\s+(?=\p{L})/u;

function isSummaryLine(line: string): boolean {
  return [PAYABLE_LABELS, TOTAL_LABELS, SUBTOTAL_LABELS, TAX_LABELS].some(
    (pattern) => findLabels([line], pattern).length > 0,
  );
}

/** The description ends where the row's trailing run of numbers (and their units) begins. */
function trailingNumbers(line: string): { description: string; numbers: AmountMatch[] } {
  const amounts = findAmounts(line);
  let start = amounts.length;
  while (start > 0) {
    const current = amounts[start - 1]!;
    const following = amounts[start];
    const between = line.slice(current.end, following ? following.index : line.length);
    if (!ROW_FILLER.test(between)) break;
    start -= 1;
  }
  const numbers = amounts.slice(start);
  const cut = numbers[0]?.index ?? line.length;
  return {
    description: line
      .slice(0, cut)
      .replace(/[\s€$£₹]+$/u, '')
      .trim(),
    numbers,
  };
}

/** Quantity × unit price = amount, from the row's numbers; nulls when no pair multiplies out. */
function itemOf(description: string, numbers: AmountMatch[]): InvoiceLineItem {
  const amount = numbers.at(-1)!.value;
  const others = numbers.slice(0, -1).map((number) => number.value);
  const pairs = others.flatMap((quantity, i) =>
    others.filter((_, j) => j !== i).map((unitPrice) => ({ quantity, unitPrice })),
  );
  // Quantities are usually whole numbers; try those first so 1 × 49.99 wins over 49.99 × 1.
  pairs.sort((a, b) => Number(!Number.isInteger(a.quantity)) - Number(!Number.isInteger(b.quantity)));
  const pair = pairs.find(({ quantity, unitPrice }) => quantity > 0 && sameAmount(quantity * unitPrice, amount));
  return { description, quantity: pair?.quantity ?? null, unitPrice: pair?.unitPrice ?? null, amount };
}

/**
 * Best-effort line items: rows that start with words and end in a run of numbers, the last one
 * written with cents (the line amount). Totals and dates are skipped. The confidence stays below
 * the review line unless the items add up to the subtotal or total.
 */
export function readLineItems(
  lines: readonly string[],
  sums: ReadonlyArray<number | null>,
): FieldResult<InvoiceLineItem[]> {
  const items: InvoiceLineItem[] = [];
  for (const rawLine of lines) {
    // "1   Ulotki A5 ...": a leading row number belongs to the table, not to the description.
    const line = rawLine.replace(ROW_NUMBER, '');
    if (isSummaryLine(line) || findDates(line).length > 0 || !/^\s*[\p{L}[(*]/u.test(line)) continue;
    const { description, numbers } = trailingNumbers(line);
    const last = numbers.at(-1);
    if (
      !last ||
      !last.hasDecimals ||
      numbers.length < 2 ||
      !/\p{L}{2}/u.test(description) ||
      description.endsWith(':')
    ) {
      continue;
    }
    items.push(itemOf(description.slice(0, MAX_DESCRIPTION), numbers));
    if (items.length === MAX_ITEMS) break;
  }
  if (items.length === 0) return { value: [], confidence: CONFIDENCE.absent };
  const sum = items.reduce((total, item) => total + (item.amount ?? 0), 0);
  const addsUp = sums.some((value) => value !== null && sameAmount(value, sum));
  return { value: items, confidence: addsUp ? CONFIDENCE.labelledNextLine : CONFIDENCE.guessed };
}
