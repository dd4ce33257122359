export { ticketsDigestWorkflow } from './tickets-digest-workflow';
