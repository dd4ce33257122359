import { type Client, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { abandonUpdate } from '../common/messages';
import { jobTypeOfWorkflow } from '../common/job-types/registry';
import { StatusSinceKey } from '../common/search-attributes';

export type AbandonAction = 'abandoned' | 'refused' | 'not_found';

export interface AbandonOutcome {
  jobId: string;
  action: AbandonAction;
  /** One line an operator can read: what happened and why. */
  detail: string;
}

/**
 * Gives up on a parked dead letter: the `abandon` Update closes the job as failed with the error it parked with.
 * Anything else (running, finished, not a job) is refused by the workflow's validator or found missing.
 */
export async function abandonDeadLetter(client: Client, jobId: string, by: { operator: string; reason?: string }): Promise<AbandonOutcome> {
  let description;
  try {
    description = await client.workflow.getHandle(jobId).describe();
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return { jobId, action: 'not_found', detail: 'no such job' };
    throw error;
  }
  if (!jobTypeOfWorkflow(description.type)) return { jobId, action: 'not_found', detail: `no such job (${jobId} is a ${description.type})` };
  if (description.status.name !== 'RUNNING') return { jobId, action: 'refused', detail: `closed as ${description.status.name.toLowerCase()}; nothing to abandon` };
  // One id per parking, as the replay's retry: a repeated request is the same Update, which the server deduplicates.
  const since = description.typedSearchAttributes.get(StatusSinceKey)?.toISOString() ?? 'unknown';
  try {
    await client.workflow.getHandle(jobId, description.runId).executeUpdate(abandonUpdate, {
      args: [{ operator: by.operator, ...(by.reason !== undefined ? { reason: by.reason } : {}) }],
      updateId: `abandon:${description.runId}:${since}`,
    });
    return { jobId, action: 'abandoned', detail: 'abandoned; the job closes as failed with the error it parked with' };
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
      return { jobId, action: 'refused', detail: error.cause.message };
    }
    // The run closed between the describe and the Update (an abandon a moment earlier, sent again): the server
    // aborts the Update with not-found, and there is nothing left to abandon.
    if (error instanceof WorkflowNotFoundError) return { jobId, action: 'refused', detail: 'closed while the request arrived; nothing to abandon' };
    throw error;
  }
}
