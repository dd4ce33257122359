import type { Client } from '@temporalio/client';
import type { ActivityDeps } from '../activities';
import type { BatchLaneDeps } from '../activities/batch-lane/batch-lane-deps';
import { batchCollectorWorkflowId, batchEntrySignal, MAX_BATCH_BYTES } from '../common/batch-lane';
import { taskQueueFor } from '../common/task-queues';
import { messageBatches } from '../gateway/batch/message-batches';
import type { WiredGateway } from '../gateway/gateway-from-config';
import type { ModelGateway } from '../gateway/model-call';
import { createAnthropicClient } from '../gateway/model-gateway';
import type { Config } from '../lib/config';
import { createObjectStore, type ObjectStore } from '../lib/object-store';

/**
 * The real clients the activities run with; tests build their own ActivityDeps. The gateway comes from
 * gatewayFromConfig (gateway/gateway-from-config.ts), which the process also needs for its activity slots; the
 * model gateway behind the tenants' spend caps (gateway/spend/spend-from-config.ts). With a Temporal client and
 * BATCH_LANE on, the batch lane's activities can reach the collectors.
 */
export function createActivityDeps(
  config: Config,
  wired: Pick<WiredGateway, 'embeddings'> & { gateway: ModelGateway },
  temporal?: Client,
): ActivityDeps {
  const store = createObjectStore(config.s3);
  return {
    store,
    gateway: wired.gateway,
    embeddings: wired.embeddings,
    config,
    ...(temporal && config.batchLane.enabled ? { batchLane: batchLaneDeps(config, store, temporal) } : {}),
  };
}

function batchLaneDeps(config: Config, store: ObjectStore, temporal: Client): BatchLaneDeps {
  return {
    store,
    batches: messageBatches(createAnthropicClient(config.anthropic)),
    prices: config.anthropic.prices,
    settings: {
      collectWindowMs: config.batchLane.collectWindowMs,
      maxRequests: config.batchLane.maxRequests,
      pollIntervalMs: config.batchLane.pollIntervalMs,
      maxBatchBytes: MAX_BATCH_BYTES,
    },
    async signalCollector(model, settings, entry) {
      // The collectors run on the bulk queue: the lane is for bulk work only.
      await temporal.workflow.signalWithStart('batchCollectorWorkflow', {
        workflowId: batchCollectorWorkflowId(model),
        taskQueue: taskQueueFor('bulk', config.temporal.taskQueuePrefix),
        args: [{ model, settings }],
        signal: batchEntrySignal,
        signalArgs: [entry],
      });
    },
  };
}
