import { type Client, type WorkflowExecutionDescription, WorkflowNotFoundError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { GivenUpWebhook, GivenUpWebhookList } from '../common/api-contract/admin';
import { webhookDeliveryParts } from '../common/webhooks';
import { findResetPoint } from './reset-point';

/** The delivery workflow's type (workflows/webhook-delivery-workflow.ts); its ids are `webhook:<jobId>:<eventId>`. */
const DELIVERY_WORKFLOW = 'deliverWebhookWorkflow';
/** Closed without delivering: given up (its activity failed for good), or ended by hand; either may be redelivered. */
const REDELIVERABLE = new Set(['FAILED', 'TIMED_OUT', 'TERMINATED']);

/** Given-up deliveries in visibility. Every run is listed, so a redelivered one's failed run still matches. */
export const GIVEN_UP_WEBHOOKS_QUERY = `WorkflowType = '${DELIVERY_WORKFLOW}' AND (ExecutionStatus = 'Failed' OR ExecutionStatus = 'TimedOut')`;

export type RedeliveryAction = 'redelivered' | 'refused' | 'not_found';

export interface RedeliveryOutcome {
  deliveryId: string;
  action: RedeliveryAction;
  detail: string;
  /** The run that delivers the event again. */
  runId?: string;
}

/** Deliveries given up and not redelivered since: those whose latest run is the failed one. */
export async function listGivenUpWebhooks(client: Client, options: { limit: number }): Promise<GivenUpWebhookList> {
  const deliveries: GivenUpWebhook[] = [];
  const seen = new Set<string>();
  let truncated = false;
  for await (const workflow of client.workflow.list({ query: GIVEN_UP_WEBHOOKS_QUERY, pageSize: Math.min(options.limit + 1, 1000) })) {
    if (seen.has(workflow.workflowId)) continue;
    seen.add(workflow.workflowId);
    const latest = await client.workflow.getHandle(workflow.workflowId).describe();
    if (latest.runId !== workflow.runId) continue;
    if (deliveries.length === options.limit) {
      truncated = true;
      break;
    }
    deliveries.push({
      deliveryId: workflow.workflowId,
      runId: workflow.runId,
      ...webhookDeliveryParts(workflow.workflowId),
      status: workflow.status.name,
      ...(workflow.closeTime ? { closedAt: workflow.closeTime.toISOString() } : {}),
    });
  }
  return { query: GIVEN_UP_WEBHOOKS_QUERY, deliveries, truncated };
}

/**
 * Delivers a given-up event again: the failed run is reset to its first workflow task, so a new run sends the same
 * event (same `webhook-id`, receivers drop duplicates) with a fresh day of retries. Deliveries still retrying, and
 * those that were delivered, are refused. A repeated request for the same failed run is the same reset.
 */
export async function redeliverWebhook(
  client: Client,
  deliveryId: string,
  options: { namespace: string; operator: string; reason: string },
): Promise<RedeliveryOutcome> {
  let description: WorkflowExecutionDescription;
  try {
    description = await client.workflow.getHandle(deliveryId).describe();
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return { deliveryId, action: 'not_found', detail: 'no such webhook delivery' };
    throw error;
  }
  if (description.type !== DELIVERY_WORKFLOW) {
    return { deliveryId, action: 'not_found', detail: `no such webhook delivery (${deliveryId} is a ${description.type})` };
  }
  const status = description.status.name;
  if (status === 'RUNNING') return { deliveryId, action: 'refused', detail: 'still being delivered: it retries with backoff for a day' };
  if (!REDELIVERABLE.has(status)) return { deliveryId, action: 'refused', detail: `closed as ${status.toLowerCase()}; nothing to redeliver` };

  const { runId } = description;
  const history = await client.workflow.getHandle(deliveryId, runId).fetchHistory();
  const point = findResetPoint(history.events ?? []);
  if (!point) return { deliveryId, action: 'refused', detail: 'no completed workflow task to reset to' };
  const response = await client.workflowService.resetWorkflowExecution(
    temporal.api.workflowservice.v1.ResetWorkflowExecutionRequest.fromObject({
      namespace: options.namespace,
      workflowExecution: { workflowId: deliveryId, runId },
      reason: `${options.reason} (by ${options.operator})`,
      workflowTaskFinishEventId: point.eventId,
      requestId: `redeliver:${runId}`,
      identity: `slowlane-redeliver/${options.operator}`,
    }),
  );
  return {
    deliveryId,
    action: 'redelivered',
    runId: response.runId ?? undefined,
    detail: `was ${status.toLowerCase()}; delivering the same event again`,
  };
}
