import { type ActivityDeps, modelStepDeps } from '../activity-deps';
import { createClassifyDocument } from './classify-document';
import { createExtractInvoiceFields } from './extract-invoice-fields';
import { createExtractText } from './extract-text';
import { createPostInvoiceToLedger } from './post-invoice-to-ledger';

/** The `invoice` activities: read the upload's text, classify it, extract the fields, post to the ledger. */
export function createInvoiceActivities(deps: Pick<ActivityDeps, 'store' | 'gateway' | 'config' | 'batchLane' | 'providerFiles'>) {
  return {
    extractText: createExtractText({ store: deps.store, maxScannedPages: deps.config.anthropic.scannedMaxPages }),
    classifyDocument: createClassifyDocument(modelStepDeps(deps, deps.config.anthropic.classifyModel)),
    extractInvoiceFields: createExtractInvoiceFields({ ...modelStepDeps(deps, deps.config.anthropic.extractModel), citeFields: deps.config.anthropic.fieldCitations }),
    postInvoiceToLedger: createPostInvoiceToLedger({ ledger: deps.config.ledger }),
  };
}

export type InvoiceActivities = ReturnType<typeof createInvoiceActivities>;
