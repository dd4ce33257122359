export { invoiceWorkflow } from './invoice-workflow';
export { deliverWebhookWorkflow } from './webhook-delivery-workflow';
export { documentWorkflow } from './document/document-workflow';
export { documentChunkGroupWorkflow } from './document/chunk-group-workflow';
