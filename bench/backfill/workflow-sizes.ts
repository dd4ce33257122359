import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/** The largest history and continue-as-new input of one workflow type, over every run the server lists. */
export interface WorkflowSizes {
  runs: number;
  maxHistoryEvents: number;
  /** Bytes of the largest input a run handed to its next (continue-as-new), as stored: encoded, encrypted. */
  maxContinueAsNewBytes: number;
}

const CONTINUED_AS_NEW = temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW;

/**
 * Reads every run of `workflowType` started since `since` (or, with `sample`, that many of them): a history's
 * length from describe, and the continue-as-new input's size from the history of each run that continued.
 */
export async function workflowSizes(client: Client, workflowType: string, since: Date, sample?: number): Promise<WorkflowSizes> {
  const sizes: WorkflowSizes = { runs: 0, maxHistoryEvents: 0, maxContinueAsNewBytes: 0 };
  const query = `WorkflowType = "${workflowType}" AND StartTime >= "${since.toISOString()}"`;
  for await (const run of client.workflow.list({ query })) {
    if (sample !== undefined && sizes.runs >= sample) break;
    sizes.runs++;
    sizes.maxHistoryEvents = Math.max(sizes.maxHistoryEvents, run.historyLength);
    if (run.status.name !== 'CONTINUED_AS_NEW') continue;
    const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
    for (const event of history.events ?? []) {
      if (event.eventType !== CONTINUED_AS_NEW) continue;
      const payloads = event.workflowExecutionContinuedAsNewEventAttributes?.input?.payloads ?? [];
      const bytes = payloads.reduce((sum, payload) => sum + (payload.data?.length ?? 0), 0);
      sizes.maxContinueAsNewBytes = Math.max(sizes.maxContinueAsNewBytes, bytes);
    }
  }
  return sizes;
}
