export { invoiceWorkflow } from './invoice-workflow';
export { deliverWebhookWorkflow } from './webhook-delivery-workflow';
export { ticketsDigestWorkflow } from './tickets-digest';
