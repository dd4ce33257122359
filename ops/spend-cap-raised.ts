import type { Client } from '@temporalio/client';
import { TENANT_ID_PATTERN } from '../common/job-id';
import { spendCapRaisedSignal } from '../common/messages';
import { jobWorkflowsClause } from './dead-letter-query';

/** The tenant's jobs waiting for their spend cap, as the Temporal Web UI's search box takes it. */
export function budgetWaitQuery(tenantId: string): string {
  if (!TENANT_ID_PATTERN.test(tenantId)) throw new Error(`not a tenant id: ${tenantId}`);
  return `${jobWorkflowsClause()} AND ExecutionStatus = 'Running' AND JobStatus = 'budget_wait' AND TenantId = '${tenantId}'`;
}

/**
 * After an operator raised a tenant's cap (TENANT_SPEND_CAPS, workers restarted): tells each of its jobs in
 * `budget_wait` to run its step again now. A job whose cap is still too low goes back to waiting by itself.
 */
export async function wakeBudgetWaits(client: Client, tenantId: string, operator: string): Promise<{ woken: number; query: string }> {
  const query = budgetWaitQuery(tenantId);
  let woken = 0;
  for await (const workflow of client.workflow.list({ query })) {
    try {
      await client.workflow.getHandle(workflow.workflowId, workflow.runId).signal(spendCapRaisedSignal, { operator, reason: 'spend cap raised' });
      woken += 1;
    } catch (error) {
      // Closed between the list and the signal: nothing left to wake.
      if (!(error instanceof Error && error.name === 'WorkflowNotFoundError')) throw error;
    }
  }
  return { woken, query };
}
