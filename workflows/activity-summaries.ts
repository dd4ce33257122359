import type { Invoice } from '../common/invoice';
import type { InvoiceJobInput } from '../common/job-types/invoice/invoice-job';

/**
 * One line per activity for the Temporal Web UI's event list, so an operator can tell steps and jobs apart
 * without opening payloads. Only what the memo already shows (file name, tenant) and ledger-bound totals appear.
 */
export const activitySummaries = {
  extractText: (input: InvoiceJobInput): string =>
    `Extract text · ${input.document.fileName} (${input.document.contentType}, ${input.document.sizeBytes} bytes)`,
  classifyDocument: (input: InvoiceJobInput): string => `Classify · ${input.document.fileName} · ${input.tenantId}`,
  extractInvoiceFields: (input: InvoiceJobInput, tryNumber: number): string =>
    `Extract invoice fields · ${input.document.fileName} · try ${tryNumber} of ${input.maxExtractionTries}`,
  postInvoiceToLedger: (input: InvoiceJobInput, invoice: Invoice): string =>
    `Post ${invoice.invoiceNumber} · ${invoice.totalAmount} ${invoice.currency} · ${input.tenantId} to the ledger`,
};
