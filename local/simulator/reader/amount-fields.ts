import {
  NOT_THE_TAX_AFTER,
  NOT_THE_TAX_BEFORE,
  NOT_THE_TOTAL_AFTER,
  PAYABLE_LABELS,
  SUBTOTAL_LABELS,
  TAX_LABELS,
  TOTAL_LABELS,
} from './amount-labels';
import { findAmounts, roundCents, sameAmount, type AmountMatch } from './amounts';
import { CONFIDENCE, settle, type Candidate, type FieldResult } from './confidence';
import { findDates } from './dates';
import { findLabels, type LabelContext, type LabelHit } from './labels';

export interface AmountFields {
  totalAmount: FieldResult<number>;
  subtotalAmount: FieldResult<number>;
  taxAmount: FieldResult<number>;
}

/** A value must start this close after its label; further right sits another column. */
const MAX_GAP_AFTER_LABEL = 12;
/** Between a value and a label glued after it only a currency or "TTC"/"HT" fits. */
const MAX_GAP_BEFORE_LABEL = 6;

const amountKey = (value: number): string => value.toFixed(2);

/** Amounts that are not the day or year of a date ("prélèvement à partir du 05 Juillet 2015"). */
function moneyIn(text: string): AmountMatch[] {
  const dates = findDates(text);
  return findAmounts(text).filter(
    (amount) => !dates.some((date) => amount.index < date.end && amount.end > date.index),
  );
}

function onlyAmount(line: string | null): AmountMatch | null {
  if (line === null) return null;
  const amounts = moneyIn(line);
  const rest = line
    .replace(/[-\d.,]/g, '')
    .replace(/[€$£₹]|\b[A-Z]{3}\b|zł|Rs\.?/gu, '')
    .trim();
  return amounts.length === 1 && rest === '' ? (amounts[0] ?? null) : null;
}

/**
 * The amount a label names: the first after it on its line (the last, less surely, when a row of
 * several follows), else the one glued before it, else the next line when that holds only an amount.
 */
function amountForLabel(hit: LabelHit): Candidate<number> | null {
  const after = moneyIn(hit.after).filter((amount) => !amount.ambiguous || amount.hasDecimals);
  const first = after[0];
  if (first && hit.after.slice(0, first.index).trim().length <= MAX_GAP_AFTER_LABEL) {
    if (after.length === 1) return { value: first.value, confidence: CONFIDENCE.labelledSameLine };
    return { value: after.at(-1)!.value, confidence: CONFIDENCE.inferred };
  }
  const before = moneyIn(hit.before).at(-1);
  if (before && hit.before.length - before.end <= MAX_GAP_BEFORE_LABEL) {
    return { value: before.value, confidence: CONFIDENCE.labelledBefore };
  }
  const next = onlyAmount(hit.nextLine);
  return next ? { value: next.value, confidence: CONFIDENCE.labelledNextLine } : null;
}

function candidates(
  lines: readonly string[],
  pattern: RegExp,
  skip?: (label: LabelContext) => boolean,
): Array<Candidate<number>> {
  return findLabels(lines, pattern, skip)
    .map(amountForLabel)
    .filter((candidate): candidate is Candidate<number> => candidate !== null && candidate.value >= 0);
}

function overlapsPayable(label: LabelContext): boolean {
  return [...label.line.matchAll(PAYABLE_LABELS)].some(
    (payable) => label.start < payable.index + payable[0].length && label.end > payable.index,
  );
}

function isNotTheTotal(label: LabelContext): boolean {
  return NOT_THE_TOTAL_AFTER.test(label.line.slice(label.end)) || overlapsPayable(label);
}

function isNotTheTax(label: LabelContext): boolean {
  return (
    NOT_THE_TAX_BEFORE.test(label.line.slice(0, label.start)) || NOT_THE_TAX_AFTER.test(label.line.slice(label.end))
  );
}

/** The largest amount written with cents: on a simple invoice, the total. A guess, scored as one. */
function largestAmount(lines: readonly string[]): FieldResult<number> {
  const amounts = lines.flatMap((line) => moneyIn(line)).filter((amount) => amount.hasDecimals && !amount.ambiguous);
  if (amounts.length === 0) return { value: null, confidence: 0 };
  return { value: Math.max(...amounts.map((amount) => amount.value)), confidence: CONFIDENCE.guessed };
}

interface TotalReading {
  result: FieldResult<number>;
  /** Every value a label offered, so arithmetic can pick among conflicting ones. */
  offered: number[];
}

function readTotal(lines: readonly string[]): TotalReading {
  const payable = candidates(lines, PAYABLE_LABELS);
  const chosen = payable.length > 0 ? payable : candidates(lines, TOTAL_LABELS, isNotTheTotal);
  if (chosen.length > 0)
    return { result: settle(chosen, amountKey), offered: chosen.map((candidate) => candidate.value) };
  const guess = largestAmount(lines);
  return { result: guess, offered: guess.value === null ? [] : [guess.value] };
}

interface Breakdown {
  subtotal: number;
  tax: number;
}

/** Subtotal + tax = total, from the labelled candidates: arithmetic a person would check first. */
function findBreakdown(
  totals: number[],
  subtotals: number[],
  taxes: number[],
): { total: number; breakdown: Breakdown } | null {
  for (const total of totals) {
    for (const subtotal of subtotals) {
      for (const tax of taxes) {
        if (sameAmount(subtotal + tax, total) && tax < total) return { total, breakdown: { subtotal, tax } };
      }
    }
  }
  return null;
}

/**
 * Total, subtotal and tax. The total comes from "amount due" style labels first, then from plain
 * "Total" labels, then (a guess) the largest amount. Subtotal + tax = total confirms all three;
 * it lifts agreeing values but never settles a conflict between two labelled totals on its own.
 */
export function readAmounts(lines: readonly string[]): AmountFields {
  const total = readTotal(lines);
  const subtotalCandidates = candidates(lines, SUBTOTAL_LABELS);
  const taxCandidates = candidates(lines, TAX_LABELS, isNotTheTax);
  const subtotal = settle(subtotalCandidates, amountKey);
  const tax = settle(taxCandidates, amountKey);
  const settledFirst = total.result.value === null ? total.offered : [total.result.value, ...total.offered];
  const match = findBreakdown(
    settledFirst,
    subtotalCandidates.map((candidate) => candidate.value),
    taxCandidates.map((candidate) => candidate.value),
  );
  if (match) {
    return {
      totalAmount: { value: match.total, confidence: confirmedTotalConfidence(total.result, match.total) },
      subtotalAmount: { value: match.breakdown.subtotal, confidence: CONFIDENCE.labelledSameLine },
      taxAmount: { value: match.breakdown.tax, confidence: CONFIDENCE.labelledSameLine },
    };
  }
  if (total.result.value === null && subtotal.value !== null && tax.value !== null) {
    const derived = { value: roundCents(subtotal.value + tax.value), confidence: CONFIDENCE.inferred };
    return { totalAmount: derived, subtotalAmount: subtotal, taxAmount: tax };
  }
  return { totalAmount: total.result, subtotalAmount: subtotal, taxAmount: tax };
}

/**
 * A labelled total that the breakdown adds up to is as sure as a label gets. Arithmetic alone lifts a
 * guessed total, or picks among conflicting totals, only to "likely": the other total may include
 * shipping or a deposit the breakdown does not show.
 */
function confirmedTotalConfidence(settled: FieldResult<number>, confirmed: number): number {
  const wasChosen = settled.value !== null && sameAmount(settled.value, confirmed);
  if (wasChosen && settled.confidence >= CONFIDENCE.labelledBefore)
    return Math.max(settled.confidence, CONFIDENCE.labelledSameLine);
  return CONFIDENCE.weakLabel;
}
