import { ChildWorkflowCancellationType, ParentClosePolicy, patched, startChild, workflowInfo } from '@temporalio/workflow';
import type { JobStart, JobType } from '../common/job';
import type { JobTypeDefinition } from '../common/job-types/job-type';
import { PUSH_SCOPES_FOR_STATUS, pushDeliveryId } from '../common/push';
import { WEBHOOK_EVENT_FOR_STATUS, webhookDeliveryId } from '../common/webhooks';
import type { JobTracker } from './job-tracker';
import { PATCHES } from './patches';
import { deliverPushWorkflow } from './push-delivery-workflow';
import { deliverWebhookWorkflow } from './webhook-delivery-workflow';

/**
 * Tells the client's callback URL about the job's latest notable status. Delivery runs in its own workflow that
 * outlives this one (ABANDON), so a receiver that is down for hours neither blocks nor loses the job's result.
 */
export async function notifyClient(input: JobStart, tracker: JobTracker, jobType: JobTypeDefinition): Promise<void> {
  await notifyCallbackUrl(input, tracker, jobType);
  await notifyPushSubscribers(input, tracker, jobType);
}

async function notifyCallbackUrl(input: JobStart, tracker: JobTracker, jobType: JobTypeDefinition): Promise<void> {
  const { state } = tracker;
  const type = WEBHOOK_EVENT_FOR_STATUS[state.status];
  const event = state.events.at(-1);
  if (!input.callbackUrl || !type || !event) return;
  // The run id keeps ids unique when an operator resets the job and its events are written again.
  const id = `evt_${workflowInfo().runId.replace(/-/g, '').slice(0, 12)}_${event.seq}`;
  await startChild(deliverWebhookWorkflow, {
    workflowId: webhookDeliveryId(input.jobId, id),
    parentClosePolicy: ParentClosePolicy.ABANDON,
    // A cancelled job does not cancel the delivery of what happened before the cancel; its own job.cancelled follows.
    cancellationType: ChildWorkflowCancellationType.ABANDON,
    args: [
      {
        tenantId: input.tenantId,
        callbackUrl: input.callbackUrl,
        event: {
          id,
          type,
          timestamp: event.at,
          data: {
            jobId: input.jobId,
            tenantId: input.tenantId,
            jobType: jobType.name as JobType,
            status: state.status,
            ...(state.error ? { error: state.error } : {}),
            ...resultFieldsOf(state.result, jobType.webhook.fromResult),
            ...(state.status === 'budget_wait' && state.budgetWait ? { budgetWait: state.budgetWait } : {}),
            ...(jobType.webhook.includesResult && state.result !== undefined ? { result: state.result } : {}),
          },
        },
      },
    ],
  });
}

/**
 * Tells the job's Web Push subscriptions (and, for a new review task, the review queue's) of its status, in a child
 * that outlives the job like a webhook's. Only a job started with `push` looks (a deployment without Web Push starts
 * no child per job), and the patch keeps runs that reached this point before it replaying as they ran.
 */
async function notifyPushSubscribers(input: JobStart, tracker: JobTracker, jobType: JobTypeDefinition): Promise<void> {
  const { state } = tracker;
  const scopes = PUSH_SCOPES_FOR_STATUS[state.status];
  const event = state.events.at(-1);
  if (!input.push || !scopes || !event || !patched(PATCHES.webPush.id)) return;
  await startChild(deliverPushWorkflow, {
    workflowId: pushDeliveryId(input.jobId, event.seq),
    parentClosePolicy: ParentClosePolicy.ABANDON,
    cancellationType: ChildWorkflowCancellationType.ABANDON,
    args: [
      {
        tenantId: input.tenantId,
        scopes,
        // The job's status event as SSE and the WebSocket number it, never its result: push services take ~4 KB.
        message: {
          event: 'status',
          id: event.seq,
          jobType: jobType.name as JobType,
          data: { jobId: input.jobId, seq: event.seq, status: state.status, ...(state.step ? { step: state.step } : {}), at: event.at },
        },
      },
    ],
  });
}

/** The result's fields an event carries beside `status`, those the result has so far. */
function resultFieldsOf(result: unknown, names: readonly 'ledgerEntryId'[] = []): Partial<Record<'ledgerEntryId', string>> {
  if (typeof result !== 'object' || result === null) return {};
  const fields = result as Partial<Record<'ledgerEntryId', unknown>>;
  return Object.fromEntries(names.flatMap((name) => (typeof fields[name] === 'string' ? [[name, fields[name]]] : [])));
}
