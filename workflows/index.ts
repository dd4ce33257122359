export { invoiceWorkflow } from './invoice-workflow';
export { orderScoreWorkflow } from './order-score/order-score-workflow';
export { deliverWebhookWorkflow } from './webhook-delivery-workflow';
export { documentWorkflow } from './document/document-workflow';
export { documentChunkGroupWorkflow } from './document/chunk-group-workflow';
export { ticketsDigestWorkflow } from './tickets-digest';
export { batchCollectorWorkflow } from './batch-lane/batch-collector-workflow';
export { messageBatchWorkflow } from './batch-lane/message-batch-workflow';
