import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testEnv } from './test-env';

export interface RealInvoice {
  name: string;
  path: string;
  /** The values a person read off the document (invoice2data's test fixtures). */
  expected: { invoice_number: string; amount?: number; date?: string; currency?: string; issuer?: string };
}

/** The real invoices in ../shared/invoices, read in place (the project never copies them). */
export function realInvoices(extension: '.pdf' | '.txt' | 'any' = 'any'): RealInvoice[] {
  const dir = testEnv().sharedInvoicesDir;
  return readdirSync(dir)
    .filter((file) => (file.endsWith('.pdf') || file.endsWith('.txt')) && (extension === 'any' || file.endsWith(extension)))
    .sort()
    .map((file) => {
      const name = file.replace(/\.(pdf|txt)$/, '');
      const [expected] = JSON.parse(readFileSync(join(dir, `${name}.expected.json`), 'utf8')) as [RealInvoice['expected']];
      return { name, path: join(dir, file), expected };
    });
}

/** An amount as an invoice may print it: 1234.5 → "1234.50" or "1234,50", with or without thousands separators. */
export function printedAmountPatterns(amount: number): RegExp {
  const [whole, cents] = amount.toFixed(2).split('.') as [string, string];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '[ .,]?');
  return new RegExp(`${grouped}[.,]${cents}`);
}
