import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { batchAnswerSignal } from '../../common/batch-lane';

export interface Execution {
  workflowId: string;
  runId: string;
}

/** What a job's histories say it left behind: every run of it and of its children, and its batch-lane entries. */
export interface JobFootprint {
  executions: Execution[];
  /** Custom ids of its batch-lane entries: their request, answer and spend hold sit in S3 by this id (common/batch-lane.ts). */
  customIds: Set<string>;
}

/** gRPC's status code for an execution the server does not have. */
const GRPC_NOT_FOUND = 5;

/** The SDK's typed error, or the raw gRPC one its lower-level calls (history, DeleteWorkflowExecution) throw. */
export function isNotFound(error: unknown): boolean {
  return error instanceof WorkflowNotFoundError || (error as { code?: unknown } | null)?.code === GRPC_NOT_FOUND;
}

/** The provider's custom_id alphabet; anything else read from a history is not one of ours. */
const CUSTOM_ID = /^[A-Za-z0-9_-]{1,64}$/;

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/**
 * Every run of the job (a reset or continue-as-new leaves earlier ones) and, read from their histories, every
 * child they started (document chunk groups, webhook deliveries) and every batch-lane entry they enqueued.
 */
export async function jobFootprint(client: Client, job: Execution): Promise<JobFootprint> {
  const footprint: JobFootprint = { executions: [], customIds: new Set() };
  const seen = new Set<string>();
  const pending: Execution[] = [job, ...(await runsOf(client, job.workflowId))];
  while (pending.length > 0) {
    const execution = pending.pop() as Execution;
    const key = `${execution.workflowId}\n${execution.runId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const history = await historyOf(client, execution);
    // Deleted meanwhile (a concurrent erasure): nothing of it is left to find.
    if (!history) continue;
    footprint.executions.push(execution);
    for (const event of history.events ?? []) {
      const child = event.childWorkflowExecutionStartedEventAttributes?.workflowExecution;
      if (child?.workflowId && child.runId) pending.push({ workflowId: child.workflowId, runId: child.runId });
      for (const customId of await customIdsIn(client, event)) footprint.customIds.add(customId);
    }
  }
  return footprint;
}

async function historyOf(client: Client, { workflowId, runId }: Execution) {
  try {
    return await client.workflow.getHandle(workflowId, runId).fetchHistory();
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** The runs visibility lists under the id (a checked job id: no quotes); the caller adds the run it described. */
async function runsOf(client: Client, workflowId: string): Promise<Execution[]> {
  const runs: Execution[] = [];
  for await (const info of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    runs.push({ workflowId: info.workflowId, runId: info.runId });
  }
  return runs;
}

/** An activity scheduled with a `customId`, or a batch answer signalled back, names a lane entry of the job. */
async function customIdsIn(client: Client, event: HistoryEvent): Promise<string[]> {
  const scheduled = event.activityTaskScheduledEventAttributes?.input?.payloads;
  const signal = event.workflowExecutionSignaledEventAttributes;
  const payloads = scheduled ?? (signal?.signalName === batchAnswerSignal.name ? signal.input?.payloads : undefined);
  if (!payloads?.length) return [];
  const [first] = await decodeArrayFromPayloads(client.options.loadedDataConverter, payloads);
  const customId = (first as { customId?: unknown } | null | undefined)?.customId;
  return typeof customId === 'string' && CUSTOM_ID.test(customId) ? [customId] : [];
}
