import { Type } from '@sinclair/typebox';
import { closed, ref } from '../../api-contract/schema-kit';
import { IMAGE_MAX_BYTES, MESSAGES_API_MEDIA_LIMITS } from '../../model-media';
import { defineJobType } from '../job-type';
import { Invoice } from './invoice';

/** The first type: an uploaded invoice, read, classified, extracted, reviewed when unsure, posted to the ledger. */
export const invoiceJobType = defineJobType({
  name: 'invoice',
  summary: 'An invoice (PDF, text, or a PNG/JPEG scan) extracted into fields and posted to the ledger once approved.',
  input: {
    kind: 'file',
    accepts: [
      // One model request reads it whole when it has no text layer; longer PDFs are `document` jobs.
      { contentType: 'application/pdf', maxPages: { setting: 'MODEL_SCANNED_MAX_PAGES' } },
      { contentType: 'text/plain' },
      // Scans go to the model as image blocks, whose limits the provider sets (common/model-media.ts).
      { contentType: 'image/png', maxBytes: IMAGE_MAX_BYTES, maxSidePx: MESSAGES_API_MEDIA_LIMITS.imageMaxSidePx },
      { contentType: 'image/jpeg', maxBytes: IMAGE_MAX_BYTES, maxSidePx: MESSAGES_API_MEDIA_LIMITS.imageMaxSidePx },
    ],
  },
  workflowType: 'invoiceWorkflow',
  priorities: ['interactive', 'bulk'],
  defaultPriority: 'interactive',
  steps: ['extractText', 'classifyDocument', 'extractInvoiceFields', 'postInvoiceToLedger'],
  result: closed({ fields: ref('Invoice', Invoice), ledgerEntryId: Type.Optional(Type.String()) }),
  review: { kind: 'confidence' },
  settings: ['confidenceThreshold', 'maxExtractionTries'],
  webhook: { includesResult: false, fromResult: ['ledgerEntryId'] },
  reviewer: {
    title: 'Invoice',
    showsDocument: true,
    // The form (built from the schema) shows the extraction itself, field by field, each with its confidence and citation.
    editable: {
      component: 'Invoice',
      schema: Invoice,
      startsFrom: 'extraction.invoice',
      confidenceFrom: 'extraction.confidence',
      // Focusing a field highlights where the document prints it (activities/invoice/cite-invoice-fields.ts).
      citationsFrom: 'extraction.citations',
    },
    sections: [],
  },
});
