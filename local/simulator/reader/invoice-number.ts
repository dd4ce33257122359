import { CONFIDENCE, settle, type Candidate, type FieldResult } from './confidence';
import { findDates } from './dates';
import { findLabels, stripLabelSeparators } from './labels';
import { labelPattern } from './text';

/** Labels that name the invoice number and nothing else, in the languages Slowlane sees. */
export const INVOICE_NUMBER_LABELS = labelPattern([
  '(?:tax\\s+)?invoice\\s*(?:no\\.?|n[or]\\.?|num(?:ber)?\\.?|#|id)',
  'facture\\s*(?:n\\s?[°º]|no\\.?|num[ée]ro)',
  'n[°º]\\s*de\\s+facture',
  'num[ée]ro\\s+de\\s+facture',
  'factuurnummer',
  'factuur\\s*(?:nr\\.?|no\\.?|nummer)',
  'faktura\\s*(?:vat\\s*)?(?:nr|numer)\\.?',
  'numer\\s+faktury',
  'rechnungs?-?\\s*(?:nummer|nr\\.?)',
  'factura\\s*(?:n[°º]|no\\.?|nr\\.?)',
]);

/** A document title word that may be followed directly by the number: "Invoice INV/2023/03/0008". */
const TITLE_WORDS = labelPattern(['(?:tax\\s+)?invoice', 'facture', 'factuur', 'faktura(?:\\s+vat)?', 'rechnung']);

/** A "#" opening a line: "# 1042". */
const HASH_LABEL = /^\s*#(?=\s*[A-Za-z0-9])/g;

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9/_\-.]*/;
const IDENTIFIER_AT_END = /([A-Za-z0-9][A-Za-z0-9/_\-.]*\d[A-Za-z0-9/_\-.]*)\s*[:#]?\s*$/;
/** Series prefixes printed apart from the number: "F 1234K20/1234/12", "FV 2024/17". */
const SERIES_PREFIX = /^[A-Z]{1,4}$/;

interface Identifier {
  value: string;
  /** Joined from two space-separated tokens, so where it ends is a guess. */
  spansTokens: boolean;
}

function trimIdentifier(token: string): string {
  return token.replace(/[.\-/]+$/, '');
}

/** The identifier a segment starts with, if it has a digit and is not a date. */
export function leadingIdentifier(segment: string): Identifier | null {
  const text = stripLabelSeparators(segment);
  if (findDates(text).some((date) => date.index === 0)) return null;
  const first = IDENTIFIER.exec(text)?.[0];
  if (!first) return null;
  if (/\d/.test(first)) return { value: trimIdentifier(first), spansTokens: false };
  const rest = text.slice(first.length);
  const second = /^ (?! )/.test(rest) ? IDENTIFIER.exec(rest.slice(1))?.[0] : undefined;
  if (SERIES_PREFIX.test(first) && second && /\d/.test(second)) {
    return { value: `${first} ${trimIdentifier(second)}`, spansTokens: true };
  }
  return null;
}

function identifierAtEnd(segment: string): Identifier | null {
  const value = IDENTIFIER_AT_END.exec(segment)?.[1];
  return value && findDates(value).length === 0 ? { value: trimIdentifier(value), spansTokens: false } : null;
}

function aloneOnLine(line: string | null): Identifier | null {
  if (line === null) return null;
  const identifier = leadingIdentifier(line.trim());
  return identifier && identifier.value.length === line.trim().replace(/^#\s*/, '').length ? identifier : null;
}

function candidate(identifier: Identifier, confidence: number): Candidate<string> {
  // A number with a space inside could be one value or a prefix plus a value; a person decides.
  return {
    value: identifier.value,
    confidence: identifier.spansTokens ? Math.min(confidence, CONFIDENCE.weakLabel) : confidence,
  };
}

/**
 * "Invoice No : # BLR_WFLD2015…": a "#" after a label that already says "number" may be printed as
 * part of the number (the person who read this real invoice wrote "#BLR_WFLD…"); a person decides.
 */
const STRAY_HASH = /^[\s:.]*#/;

function labelledCandidates(lines: readonly string[]): Array<Candidate<string>> {
  const found: Array<Candidate<string>> = [];
  for (const hit of findLabels(lines, INVOICE_NUMBER_LABELS)) {
    const after = leadingIdentifier(hit.after);
    const strayHash = !hit.label.includes('#') && STRAY_HASH.test(hit.after);
    const before = after ? null : identifierAtEnd(hit.before);
    const next = after || before ? null : aloneOnLine(hit.nextLine);
    if (after) found.push(candidate(after, strayHash ? CONFIDENCE.weakLabel : CONFIDENCE.labelledSameLine));
    else if (before) found.push(candidate(before, CONFIDENCE.labelledBefore));
    else if (next) found.push(candidate(next, CONFIDENCE.labelledNextLine));
  }
  return found;
}

function weakCandidates(lines: readonly string[]): Array<Candidate<string>> {
  const found: Array<Candidate<string>> = [];
  for (const hit of findLabels(lines, TITLE_WORDS)) {
    if (!/^\s+\S/.test(hit.after)) continue;
    const identifier = leadingIdentifier(hit.after);
    // "Invoice INV-1" as a heading is a label; "invoice 12 of your order" in a sentence barely is.
    if (identifier)
      found.push(candidate(identifier, hit.before.trim() === '' ? CONFIDENCE.labelledNextLine : CONFIDENCE.inferred));
  }
  for (const hit of findLabels(lines, HASH_LABEL)) {
    const identifier = leadingIdentifier(hit.after);
    if (identifier) found.push(candidate(identifier, CONFIDENCE.weakLabel));
  }
  return found;
}

/**
 * The invoice number: from an explicit label ("Invoice No", "Facture n°", "Factuurnummer",
 * "Faktura nr"), else from a title word followed by a number or a leading "#". An unlabelled number
 * is not guessed: too many numbers on an invoice look alike (order, customer, VAT ids).
 */
export function readInvoiceNumber(lines: readonly string[]): FieldResult<string> {
  const labelled = labelledCandidates(lines);
  return settle(labelled.length > 0 ? labelled : weakCandidates(lines));
}
