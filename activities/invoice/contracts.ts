import type { DocumentRef, Usage } from '../../common/job';
import type { Classification, Invoice, InvoiceExtraction } from '../../common/invoice';
import type { VisualDocument } from '../../common/model-media';
import type { JobContext } from '../step-contracts';

/** Inputs and results of the invoice's activities: references and small JSON only, never document bytes or full text. */

export interface ExtractTextInput extends JobContext {
  document: DocumentRef;
}
export interface ExtractTextResult {
  textKey: string;
  characters: number;
  pages: number;
  attempt: number;
  /** A scan (an image, or a PDF without a text layer): the model steps read these bytes instead of text. */
  visual?: VisualDocument;
}

export interface ClassifyDocumentResult {
  classification: Classification;
  usage: Usage;
  attempt: number;
}

export type ExtractInvoiceFieldsResult =
  | {
      outcome: 'valid';
      extraction: InvoiceExtraction;
      /** The extraction as a postable invoice, or null when a required field is missing or malformed. */
      invoice: Invoice | null;
      invoiceErrors: string[];
      confidence: number;
      usage: Usage;
      attempt: number;
    }
  | {
      outcome: 'schema_invalid';
      rawOutput: string;
      errors: string[];
      usage: Usage;
      attempt: number;
    };

export interface PostInvoiceToLedgerInput extends JobContext {
  invoice: Invoice;
}
export interface PostInvoiceToLedgerResult {
  entryId: string;
  replayed: boolean;
  attempt: number;
}
