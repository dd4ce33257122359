import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

export interface WorkflowHistorySize {
  workflowId: string;
  events: number;
  /** The history as the server stores it (protobuf). */
  bytes: number;
}

/**
 * A workflow and every child it started (followed through its StartChildWorkflowExecutionInitiated events), each
 * with its history's size; `history` is the workflow's own when the caller has read it already.
 */
export async function historySizes(client: Client, workflowId: string, history?: temporal.api.history.v1.IHistory): Promise<WorkflowHistorySize[]> {
  const own = history ?? (await client.workflow.getHandle(workflowId).fetchHistory());
  const bytes = temporal.api.history.v1.History.encode(temporal.api.history.v1.History.fromObject(own)).finish().length;
  const children = (own.events ?? []).flatMap((event) => {
    const id = event.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
    return id ? [id] : [];
  });
  const nested = await Promise.all(children.map((child) => historySizes(client, child)));
  return [{ workflowId, events: own.events?.length ?? 0, bytes }, ...nested.flat()];
}
