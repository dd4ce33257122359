import type { InvoiceExtraction } from '../../../common/invoice';
import { readAmounts } from './amount-fields';
import type { FieldResult } from './confidence';
import { readCurrency } from './currency';
import { readDueDate, readIssueDate } from './date-fields';
import { readInvoiceNumber } from './invoice-number';
import { readIssuer } from './issuer';
import { readLineItems } from './line-items';
import { toLines } from './text';

/** Two decimals: the reader's confidences are coarse, more digits would pretend otherwise. */
function confidenceOf(field: FieldResult<unknown>): number {
  const value = field.value;
  if (value === null || (Array.isArray(value) && value.length === 0)) return 0;
  return Math.round(field.confidence * 100) / 100;
}

/** Limits of invoice-extraction.schema.json: longer values are garbage, not a number or a name. */
function limited(field: FieldResult<string>, maxLength: number): FieldResult<string> {
  return field.value !== null && field.value.length > maxLength ? { value: null, confidence: 0 } : field;
}

/**
 * The `record_invoice` tool's answer for a document's text: every field of the extraction schema,
 * null where the document does not show it, each with a confidence that says how it was found.
 */
export function readInvoice(text: string): InvoiceExtraction {
  const lines = toLines(text);
  const invoiceNumber = limited(readInvoiceNumber(lines), 100);
  const issuer = limited(readIssuer(lines), 200);
  const dueDate = readDueDate(lines);
  const issueDate = readIssueDate(lines, dueDate.value);
  const currency = readCurrency(text);
  const { totalAmount, subtotalAmount, taxAmount } = readAmounts(lines);
  const lineItems = readLineItems(lines, [subtotalAmount.value, totalAmount.value]);
  return {
    invoice: {
      invoiceNumber: invoiceNumber.value,
      issuer: issuer.value,
      issueDate: issueDate.value,
      dueDate: dueDate.value,
      currency: currency.value,
      totalAmount: totalAmount.value,
      subtotalAmount: subtotalAmount.value,
      taxAmount: taxAmount.value,
      lineItems: lineItems.value ?? [],
    },
    confidence: {
      invoiceNumber: confidenceOf(invoiceNumber),
      issuer: confidenceOf(issuer),
      issueDate: confidenceOf(issueDate),
      dueDate: confidenceOf(dueDate),
      currency: confidenceOf(currency),
      totalAmount: confidenceOf(totalAmount),
      subtotalAmount: confidenceOf(subtotalAmount),
      taxAmount: confidenceOf(taxAmount),
      lineItems: confidenceOf(lineItems),
    },
  };
}
