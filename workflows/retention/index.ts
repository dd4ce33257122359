export { retentionSweepWorkflow } from './retention-sweep-workflow';
