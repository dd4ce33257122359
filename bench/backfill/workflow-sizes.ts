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
 * Reads every run of `workflowType` started since `since` (or, with `sample`, that many of them) from its history:
 * its length, and the size of the input it handed to its next run when it continued as new.
 */
export async function workflowSizes(client: Client, workflowType: string, since: Date, sample?: number): Promise<WorkflowSizes> {
  const sizes: WorkflowSizes = { runs: 0, maxHistoryEvents: 0, maxContinueAsNewBytes: 0 };
  const query = `WorkflowType = "${workflowType}" AND StartTime >= "${since.toISOString()}"`;
  for await (const run of client.workflow.list({ query })) {
    if (sample !== undefined && sizes.runs >= sample) break;
    sizes.runs++;
    // Visibility's history length is not kept for every run (a running one, on SQLite): the history says.
    const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
    sizes.maxHistoryEvents = Math.max(sizes.maxHistoryEvents, history.events?.length ?? 0);
    for (const event of history.events ?? []) {
      if (event.eventType !== CONTINUED_AS_NEW) continue;
      const payloads = event.workflowExecutionContinuedAsNewEventAttributes?.input?.payloads ?? [];
      const bytes = payloads.reduce((sum, payload) => sum + (payload.data?.length ?? 0), 0);
      sizes.maxContinueAsNewBytes = Math.max(sizes.maxContinueAsNewBytes, bytes);
    }
  }
  return sizes;
}
