import { labelPattern } from './text';

/** Labels that name the amount to pay; preferred over a plain "Total", which may be a column sum. */
export const PAYABLE_LABELS = labelPattern([
  'grand\\s+total',
  'total\\s+(?:amount\\s+)?due',
  'amount\\s+(?:due|payable)',
  'balance\\s+due',
  'total\\s+(?:payable|to\\s+pay)',
  'invoice\\s+total',
  'total\\s+ttc',
  '(?:net|somme|montant|total)\\s+[àa]\\s+payer',
  'montant\\s+du\\s+pr[ée]l[èe]vement',
  'nale[żz]no[śs][ćc]\\s+og[óo][łl]em',
  '(?:razem\\s+)?do\\s+zap[łl]aty',
  'factuur\\s*totaal',
  'totaal\\s+te\\s+betalen',
  'te\\s+betalen',
  'gesamtbetrag',
  'rechnungsbetrag',
  'zu\\s+zahlen',
  'endbetrag',
  'total\\s+incl(?:\\.|uding)?\\s+(?:vat|tax|btw)',
  'totaal\\s+incl\\.?\\s+btw',
]);

export const TOTAL_LABELS = labelPattern(['total', 'totaal', 'totale', 'razem', 'summe', 'suma', 'montant\\s+total']);

/** "Total HT", "Total VAT", "Total qty": a total label that names something other than the amount due. */
export const NOT_THE_TOTAL_AFTER =
  /^\W*(?:ht|hors|excl|exclusive|exclusief|net|netto|before|tva|vat|tax|btw|mwst|ust|w\s+tym|qty|quantity|items?|weight|pages?|hours)(?![\p{L}])/iu;

export const SUBTOTAL_LABELS = labelPattern([
  'sub\\s*-?\\s*total',
  'subtotaal',
  'total\\s+ht',
  'montant\\s+ht',
  'total\\s+hors\\s+taxes?',
  'total\\s+excl(?:\\.|uding)?(?:\\s+(?:vat|tax|btw))?',
  'net\\s+(?:amount|total)',
  'total\\s+net',
  'exclusief\\s+btw',
  'excl\\.?\\s+btw',
  'totaal\\s+excl\\.?\\s+btw',
  'zwischensumme',
  'nettobetrag',
  'summe\\s+netto',
  'razem\\s+netto',
  'warto[śs][ćc]\\s+netto',
]);

export const TAX_LABELS = labelPattern([
  'tax',
  'vat',
  'tva',
  'btw',
  'mwst',
  'ust',
  'gst',
  'iva',
  'kwota\\s+vat',
  'sales\\s+tax',
  '(?:montant|total)\\s+(?:tva|vat|tax)',
  '(?:vat|tax)\\s+amount',
]);

/** "VAT number", "BTW nr", "Service tax #", "incl. BTW": tax words that do not label the tax amount. */
export const NOT_THE_TAX_BEFORE =
  /(?:incl|excl|exclusief|inclusief|hors|before|after|service|prijs|price|sur|w\s+tym)\W*$/i;
export const NOT_THE_TAX_AFTER =
  /^\s*(?:\/|id|no\b|number|nr|nummer|reg|#|intra|registration|code|identification|acquitt|included|inclus|incl|excl)/i;
