import type { InvoiceExtraction } from '../../invoice';
import type { DocumentRef, JobStart, JobState } from '../../job';

/** An invoice job's start: the upload, and the two settings only the invoice reads (its definition's `settings`). */
export interface InvoiceJobInput extends JobStart {
  document: DocumentRef;
  /** Below this overall confidence a person reviews the fields (0..1). */
  confidenceThreshold: number;
  /** Schema-invalid model output is re-asked this many times in total before it goes to review. */
  maxExtractionTries: number;
}

/** What an invoice's `status` query shows beyond every job's state; once posted, its `result` is what it posted. */
export type InvoiceJobState = JobState & {
  /** The extracted text's object, which the model steps read. */
  textKey?: string;
  /** What the classifier took the document for; anything but `invoice` ends the job rejected. */
  documentType?: string;
  /** The model's answer as it came, for the reviewer (the Job's `extraction`). */
  extraction?: InvoiceExtraction;
  /** The weakest required field's confidence (common/invoice.ts overallConfidence). */
  confidence?: number;
};
