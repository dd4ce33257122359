import type { Classification, DocumentType } from '../../../common/invoice';
import { readAmounts } from './amount-fields';
import { findAmounts } from './amounts';
import { CONFIDENCE } from './confidence';
import { readInvoiceNumber } from './invoice-number';
import { toLines, wordPattern } from './text';

type KnownType = Exclude<DocumentType, 'other'>;

/** What each kind of document calls itself, in the languages Slowlane sees. */
const KEYWORDS: Record<KnownType, RegExp> = {
  invoice: wordPattern([
    '(?:tax\\s+)?invoices?',
    'factures?',
    'factuur',
    'faktura(?:\\s+vat)?',
    'rechnung',
    'fattura',
    'factura',
    'bill',
  ]),
  receipt: wordPattern([
    'receipt',
    're[çc]u',
    'kassenbon',
    'quittung',
    'paragon',
    'kassabon',
    'kwitantie',
    'ticket\\s+de\\s+caisse',
  ]),
  credit_note: wordPattern([
    'credit\\s+(?:note|memo)',
    'avoir',
    'creditnota',
    'creditfactuur',
    'gutschrift',
    'faktura\\s+koryguj[ąa]ca',
    'nota\\s+kredytowa',
  ]),
  purchase_order: wordPattern([
    'purchase\\s+order',
    'bon\\s+de\\s+commande',
    'inkooporder',
    'bestelbon',
    'bestellung',
    'zam[óo]wienie',
  ]),
};

/** Words in the first lines are the document's title: they count more than a mention further down. */
const TITLE_LINES = 5;
const TITLE_WEIGHT = 3;

function keywordScore(lines: readonly string[], pattern: RegExp): number {
  const nonEmpty = lines.filter((line) => line.trim() !== '');
  return nonEmpty.reduce((score, line, index) => {
    const hits = [...line.matchAll(pattern)].length;
    return score + hits * (index < TITLE_LINES ? TITLE_WEIGHT : 1);
  }, 0);
}

/** How much of an invoice's anatomy the text shows: a labelled number, a labelled total, money amounts. */
function invoiceSignals(lines: readonly string[]): string[] {
  const signals: string[] = [];
  if (readInvoiceNumber(lines).value !== null) signals.push('an invoice number');
  if (readAmounts(lines).totalAmount.confidence > CONFIDENCE.guessed) signals.push('a labelled total');
  if (lines.some((line) => findAmounts(line).some((amount) => amount.hasDecimals))) signals.push('money amounts');
  return signals;
}

/**
 * Classifies by what the document calls itself (keywords, title weighted) and checks the anatomy:
 * a letter that mentions "your invoice" has the word but no number, total or amounts, so it is
 * "other". Confidence is high only when the title and the anatomy agree.
 */
export function classifyDocument(text: string): Classification {
  const lines = toLines(text);
  const scores = (Object.keys(KEYWORDS) as KnownType[])
    .map((type) => ({ type, score: keywordScore(lines, KEYWORDS[type]) }))
    .sort((a, b) => b.score - a.score);
  const best = scores[0];
  if (!best || best.score === 0) {
    return {
      documentType: 'other',
      confidence: 0.95,
      reason: 'No invoice, receipt, credit note or purchase order wording.',
    };
  }
  const signals = invoiceSignals(lines);
  if (signals.length === 0) {
    return {
      documentType: 'other',
      confidence: 0.7,
      reason: `Mentions "${best.type.replace('_', ' ')}" but shows no number, total or amounts.`,
    };
  }
  const runnerUp = scores[1]?.score ?? 0;
  const clear = best.score >= TITLE_WEIGHT && best.score >= 2 * runnerUp;
  const confidence = clear && signals.length >= 2 ? 0.97 : clear || signals.length >= 2 ? 0.9 : 0.75;
  const name = best.type.replace('_', ' ');
  return {
    documentType: best.type,
    confidence,
    reason: `Calls itself ${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}; shows ${signals.join(', ')}.`,
  };
}
