import { CONFIDENCE, settle, type Candidate, type FieldResult } from './confidence';
import { findLabels } from './labels';
import { labelPattern, wordPattern } from './text';

/** Labels that name the party issuing the invoice. A colon is required: "from" in a sentence is no label. */
const ISSUER_LABELS = labelPattern(
  [
    'seller',
    'sold\\s+by',
    'supplier',
    'vendor',
    'issuer',
    'issued\\s+by',
    'bill(?:ed)?\\s+from',
    'from',
    'sprzedawca',
    'wystawca',
    'leverancier',
    'verkoper',
    'vendeur',
    '[ée]metteur',
    'fournisseur',
    'verk[äa]ufer',
    'lieferant',
    'rechnungssteller',
  ],
  '\\s*:',
);

/** Whoever receives the payment is usually the issuer, but invoices name factoring banks here too. */
const PAYEE_LABELS = labelPattern(
  [
    'titulaire\\s+du\\s+compte',
    'account\\s+(?:holder|name)',
    'ten\\s+name\\s+van',
    'beneficiary',
    'kontoinhaber',
    'payee',
  ],
  '\\s*:',
);

const LEGAL_FORM = wordPattern([
  'b\\.\\s?v\\.?',
  'n\\.\\s?v\\.?',
  's\\.\\s?a\\.?',
  'sas',
  'sarl',
  's\\.\\s?r\\.\\s?l\\.?',
  'gmbh',
  'ag',
  'ltd\\.?',
  'limited',
  'llc',
  'inc\\.?',
  'corp\\.?',
  'plc',
  'pvt\\.?',
  'sp\\.\\s?z\\s?o\\.\\s?o\\.?',
  's\\.p\\.a\\.?',
]);

/** Recipient blocks: a company named under these is the customer, not the issuer. */
const RECIPIENT_LABELS =
  /(?:bill(?:ed)?\s+to|ship(?:ped)?\s+to|sold\s+to|customer|client|buyer|nabywca|odbiorca|factuuradres|afleveradres|klant|factur[ée]\s+[àa]|destinataire|rechnungsempf[äa]nger|kunde|billing\s+address|shipping\s+address|t\.a\.v\.|attn|c\/o)/i;
const TABLE_HEADER_WORDS =
  /\b(?:description|quantity|qty|price|amount|artikel|omschrijving|prijs|bedrag|menge|preis|betrag|d[ée]signation|montant|nazwa|ilo[śs][ćc]|cena|warto[śs][ćc])\b/i;
/** Lines naming the document rather than a party: "INVOICE", "Kopie factuur", "Facture n° 12". */
const DOCUMENT_WORDS = /(?:invoice|facture|factuur|faktura|rechnung|receipt|bill\s+to)/i;

const MAX_NAME_LENGTH = 120;

function cleanName(raw: string): string | null {
  const name = raw
    .split(/\s{2,}/)[0]!
    .replace(/[\s,;:–-]+$/u, '')
    .replace(/^[\s,;:–-]+/u, '')
    .trim();
  if (name.length < 2 || name.length > MAX_NAME_LENGTH || !/\p{L}{2}/u.test(name)) return null;
  return name;
}

function labelledNames(lines: readonly string[], pattern: RegExp, confidence: number): Array<Candidate<string>> {
  const found: Array<Candidate<string>> = [];
  for (const hit of findLabels(lines, pattern)) {
    const after = cleanName(hit.after);
    // "WS Retail Services Pvt. Ltd.,Sold By :" — the name glued before its label.
    const before = after ? null : cleanName(hit.before);
    const next =
      after || before || hit.nextLine === null || hit.nextLine.includes(':') ? null : cleanName(hit.nextLine);
    const name = after ?? before ?? next;
    if (name) found.push({ value: name, confidence: next ? confidence - 0.04 : confidence });
  }
  return found;
}

/** Within three lines under a "Bill To"-style label, or just above an attention line ("T.a.v.", "Attn"). */
function inRecipientBlock(lines: readonly string[], index: number): boolean {
  return RECIPIENT_LABELS.test(lines.slice(Math.max(0, index - 3), index + 2).join('\n'));
}

function legalFormNames(lines: readonly string[]): Array<Candidate<string>> {
  const found: Array<Candidate<string>> = [];
  lines.forEach((line, index) => {
    const text = line.trim();
    if (
      text.length > 60 ||
      text.includes(':') ||
      !/^\p{L}/u.test(text) ||
      !new RegExp(LEGAL_FORM.source, 'iu').test(text)
    )
      return;
    if (inRecipientBlock(lines, index)) return;
    const name = cleanName(text);
    if (name) found.push({ value: name, confidence: CONFIDENCE.inferred });
  });
  return found;
}

function topLineGuess(lines: readonly string[]): FieldResult<string> {
  for (const [index, line] of lines.slice(0, 5).entries()) {
    const text = line.trim();
    if (
      inRecipientBlock(lines, index) ||
      !/^\p{L}/u.test(text) ||
      /\d/.test(text) ||
      DOCUMENT_WORDS.test(text) ||
      TABLE_HEADER_WORDS.test(text)
    )
      continue;
    const name = cleanName(text);
    if (name) return { value: name, confidence: CONFIDENCE.guessed - 0.1 };
  }
  return { value: null, confidence: 0 };
}

/**
 * The issuer: a labelled seller ("Seller:", "Sold By:", "Sprzedawca:") is sure; the account holder of
 * the payment details, or a single company name with a legal form (B.V., GmbH, S.A.) outside the
 * customer block, is a fair inference; the document's top line is a guess.
 */
export function readIssuer(lines: readonly string[]): FieldResult<string> {
  const labelled = labelledNames(lines, ISSUER_LABELS, CONFIDENCE.labelledSameLine);
  if (labelled.length > 0) return settle(labelled);
  const inferred = [...labelledNames(lines, PAYEE_LABELS, CONFIDENCE.weakLabel), ...legalFormNames(lines)];
  if (inferred.length > 0) {
    const result = settle(inferred);
    return { value: result.value, confidence: Math.min(result.confidence, CONFIDENCE.weakLabel) };
  }
  return topLineGuess(lines);
}
