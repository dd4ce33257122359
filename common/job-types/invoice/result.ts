import type { Static } from '@sinclair/typebox';
import type { invoiceJobType } from './definition';

export type InvoiceResult = Static<(typeof invoiceJobType)['result']>;

/** Tells an invoice's result (fields posted to the ledger) from another type's in a Job's `result`. */
export function isInvoiceResult(result: unknown): result is InvoiceResult {
  return typeof result === 'object' && result !== null && 'fields' in result;
}
