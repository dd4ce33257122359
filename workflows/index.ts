export { invoiceWorkflow } from './invoice-workflow';
