import { CONFIDENCE, settle, type Candidate, type FieldResult } from './confidence';
import { dayMonthOrderOf, findDates, type DateMatch, type DayMonthOrder } from './dates';
import { INVOICE_NUMBER_LABELS } from './invoice-number';
import { findLabels, type LabelContext } from './labels';
import { labelPattern } from './text';

const ISSUE_DATE_LABELS = labelPattern([
  'invoice\\s+date',
  'date\\s+of\\s+(?:invoice|issue)',
  'issue\\s+date',
  'date\\s+issued',
  'billing\\s+date',
  'factuurdatum',
  'factuur\\s*datum',
  'date\\s+de\\s+(?:la\\s+)?facture',
  'date\\s+facture',
  "date\\s+d'[ée]mission",
  'data\\s+wystawienia',
  'data\\s+faktury',
  'rechnungsdatum',
  'datum\\s+der\\s+rechnung',
  'fecha\\s+de\\s+factura',
]);

/** "Date:" alone names the issue date only when nothing around it says which other date it is. */
const GENERIC_DATE_LABELS = labelPattern(['date', 'datum', 'dated']);
const OTHER_DATE_BEFORE =
  /(?:order|due|delivery|deliver|ship\w*|payment|expiry|expiration|start|end|print\w*|value|service|supply|invoice|issue|billing|bestel|lever|verval|betaal|livraison|commande|[ée]ch[ée]ance|paiement|liefer|f[äa]llig|leistungs|factuur|rechnungs)\W*$/i;
const OTHER_DATE_AFTER =
  /^\W*(?:limite|d'[ée]ch[ée]ance|de\s+(?:livraison|commande|paiement)|of\s+(?:delivery|supply|order)|due|de\s+la\s+facture|de\s+facture|d'[ée]mission)/i;

const DUE_DATE_LABELS = labelPattern([
  'due\\s+date',
  'date\\s+due',
  'payment\\s+due(?:\\s+date)?',
  'due\\s+(?:on|by)',
  'pay\\s+by',
  'vervaldatum',
  'uiterste\\s+betaaldatum',
  "date\\s+d'[ée]ch[ée]ance",
  '[ée]ch[ée]ance',
  'date\\s+limite\\s+de\\s+paiement',
  'termin\\s+p[łl]atno[śs]ci',
  'f[äa]lligkeitsdatum',
  'f[äa]llig\\s+am',
  'zahlbar\\s+bis',
]);

/** "Facture n° 562044387 du 02 Juillet 2015": the date that follows the number on its line. */
const DATE_AFTER_NUMBER = /(?:du|dated|of|vom|z\s+dnia|van|from)\s*$/i;

/** A value must start this close to its label to belong to it (columns further right are other fields). */
const MAX_GAP_AFTER_LABEL = 20;
const MAX_GAP_BEFORE_LABEL = 3;

interface DateContext {
  order: DayMonthOrder;
  /** The document proves its day/month order with another date, so assumed orders are safe. */
  orderProven: boolean;
}

function scored(date: DateMatch, confidence: number, context: DateContext): Candidate<string> {
  const cap = date.orderAssumed && !context.orderProven ? CONFIDENCE.inferred : 1;
  return { value: date.iso, confidence: Math.min(confidence, cap) };
}

function labelledDates(
  lines: readonly string[],
  pattern: RegExp,
  context: DateContext,
  skip?: (label: LabelContext) => boolean,
): Array<Candidate<string>> {
  const found: Array<Candidate<string>> = [];
  for (const hit of findLabels(lines, pattern, skip)) {
    const after = findDates(hit.after, context.order)[0];
    if (after && hit.after.slice(0, after.index).trim().length <= MAX_GAP_AFTER_LABEL) {
      found.push(scored(after, CONFIDENCE.labelledSameLine, context));
      continue;
    }
    const before = findDates(hit.before, context.order).at(-1);
    if (before && hit.before.length - before.end <= MAX_GAP_BEFORE_LABEL) {
      found.push(scored(before, CONFIDENCE.labelledBefore, context));
      continue;
    }
    const next = hit.nextLine === null ? undefined : findDates(hit.nextLine, context.order)[0];
    if (next && hit.nextLine?.trim().length === next.end - next.index) {
      found.push(scored(next, CONFIDENCE.labelledNextLine, context));
    }
  }
  return found;
}

function isOtherDateLabel(label: LabelContext): boolean {
  return OTHER_DATE_BEFORE.test(label.line.slice(0, label.start)) || OTHER_DATE_AFTER.test(label.line.slice(label.end));
}

function datesAfterInvoiceNumber(lines: readonly string[], context: DateContext): Array<Candidate<string>> {
  const found: Array<Candidate<string>> = [];
  for (const hit of findLabels(lines, INVOICE_NUMBER_LABELS)) {
    for (const date of findDates(hit.after, context.order)) {
      if (DATE_AFTER_NUMBER.test(hit.after.slice(0, date.index))) {
        found.push(scored(date, CONFIDENCE.labelledNextLine, context));
      }
    }
  }
  return found;
}

function contextOf(lines: readonly string[]): DateContext {
  const { order, proven } = dayMonthOrderOf(lines.join('\n'));
  return { order, orderProven: proven };
}

/**
 * The issue date: an explicit label ("Invoice Date", "Factuurdatum", "Data wystawienia"), then a bare
 * "Date:" that no neighbouring word assigns to something else, then the date printed with the invoice
 * number; failing all that, the first date in the document — a guess, and scored as one.
 */
export function readIssueDate(lines: readonly string[], dueDate: string | null): FieldResult<string> {
  const context = contextOf(lines);
  const explicit = labelledDates(lines, ISSUE_DATE_LABELS, context);
  if (explicit.length > 0) return settle(explicit);
  const generic = labelledDates(lines, GENERIC_DATE_LABELS, context, isOtherDateLabel);
  if (generic.length > 0) return settle(generic);
  const withNumber = datesAfterInvoiceNumber(lines, context);
  if (withNumber.length > 0) return settle(withNumber);
  const first = findDates(lines.join('\n'), context.order).find((date) => date.iso !== dueDate);
  return first
    ? { value: first.iso, confidence: Math.min(CONFIDENCE.guessed, scored(first, 1, context).confidence) }
    : { value: null, confidence: 0 };
}

/** The due date, only from a label: an unlabelled second date is as likely a delivery or order date. */
export function readDueDate(lines: readonly string[]): FieldResult<string> {
  return settle(labelledDates(lines, DUE_DATE_LABELS, contextOf(lines)));
}
