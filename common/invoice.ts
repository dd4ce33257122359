import type { FieldCitations } from './job-types/invoice/field-citations';
import type { Invoice, InvoiceLineItem } from './job-types/invoice/invoice';

export type { Invoice, InvoiceLineItem };

export type InvoiceFieldName = keyof Invoice;

/** Fields without which an invoice cannot be posted; their confidence decides the overall confidence. */
export const REQUIRED_INVOICE_FIELDS: readonly InvoiceFieldName[] = [
  'invoiceNumber',
  'issuer',
  'issueDate',
  'currency',
  'totalAmount',
];

/** What the model returns (schemas/invoice-extraction.schema.json): any field may be null when not shown. */
export interface InvoiceExtraction {
  invoice: { [K in InvoiceFieldName]: K extends 'lineItems' ? InvoiceLineItem[] : Invoice[K] | null };
  confidence: Record<InvoiceFieldName, number>;
  /** Added after the model's answer passed its schema (absent in jobs extracted before citations, and when turned off). */
  citations?: FieldCitations;
}

export type DocumentType = 'invoice' | 'receipt' | 'credit_note' | 'purchase_order' | 'other';

export interface Classification {
  documentType: DocumentType;
  confidence: number;
  reason?: string;
}

/**
 * Overall confidence is the weakest required field: one unreadable total is enough to need a person,
 * however sure the model is of the rest. A missing required value counts as zero.
 */
export function overallConfidence(extraction: InvoiceExtraction): number {
  let lowest = 1;
  for (const name of REQUIRED_INVOICE_FIELDS) {
    const value = extraction.invoice[name];
    const confidence = value === null || value === '' ? 0 : extraction.confidence[name];
    lowest = Math.min(lowest, confidence);
  }
  return lowest;
}
