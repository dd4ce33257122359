import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import type { Registry } from 'prom-client';
import type { ActivityDeps } from '../activities/activity-deps';
import type { BatchLaneDeps } from '../activities/batch-lane/batch-lane-deps';
import { killAt } from '../activities/batch-lane/kill-point';
import { collectorSignals } from '../activities/batch-lane/collector-signals';
import { batchAnswerSignal, batchCollectorWorkflowId, MAX_BATCH_BYTES } from '../common/batch-lane';
import { batchLaneTaskQueue } from '../common/task-queues';
import { messageBatches } from '../gateway/batch/message-batches';
import type { EmbeddingsGateway } from '../gateway/embeddings/embeddings-call';
import { createProviderFiles } from '../gateway/files/provider-files';
import type { ModelGateway } from '../gateway/model-call';
import type { AsyncSpeechGateway, SpeechGateway } from '../gateway/speech/transcription-call';
import type { TenantSpend } from '../gateway/spend/tenant-spend';
import { createAnthropicClient } from '../gateway/model-gateway';
import { createAssemblyAiSpeechGateway } from '../gateway/speech/assemblyai-speech-gateway';
import type { Config } from '../lib/config';
import { type BatchLaneEvent, batchLaneMetricsListener } from '../lib/metrics-batch-lane';
import { createAuditTrail } from '../lib/audit/audit-trail';
import type { Logger } from '../lib/logger';
import { createObjectStore, type ObjectStore } from '../lib/object-store';
import { speechCallbackSigner } from '../lib/speech/speech-callback-signer';
import { speechCallbackStore } from '../lib/speech/speech-callback-store';

/**
 * The real clients the activities run with; tests build their own ActivityDeps. The gateway comes from
 * gatewayFromConfig (gateway/gateway-from-config.ts), which the process also needs for its activity slots; the
 * model and embeddings gateways behind the tenants' spend caps (gateway/spend/spend-from-config.ts). With a Temporal client and
 * BATCH_LANE on, the batch lane's activities can reach the collectors.
 */
export function createActivityDeps(
  config: Config,
  /** `spend`: the caps the gateways count into; the batch lane holds its entries there too. */
  wired: { gateway: ModelGateway; embeddings: EmbeddingsGateway; speech: SpeechGateway; speechAsync?: AsyncSpeechGateway; spend?: TenantSpend },
  temporal?: Client,
  /** The worker's metrics registry: the batch lane's counts go there (lib/metrics-batch-lane.ts). */
  registry?: Registry,
  /** The retention sweep's log lines say what it erased; without it (or `temporal`) the sweep's activities refuse. */
  log?: Logger,
): ActivityDeps {
  const store = createObjectStore(config);
  const onLaneEvent = registry ? batchLaneMetricsListener(registry) : () => undefined;
  const providerFiles = createProviderFiles(createAnthropicClient(config.anthropic));
  return {
    store,
    gateway: wired.gateway,
    embeddings: wired.embeddings,
    speech: wired.speech,
    ...(config.speech.provider === 'assemblyai' && wired.speechAsync
      ? {
          speechByCallback: {
            speech: wired.speechAsync,
            callbacks: speechCallbackStore(store),
            signer: speechCallbackSigner(config.speech.callbackSecret),
            publicUrl: config.api.publicUrl,
          },
        }
      : {}),
    config,
    providerFiles,
    ...(temporal && log
      ? {
          retention: {
            client: temporal,
            store,
            providerFiles,
            // Its own door, outside the spend caps: deleting a transcript sends no audio and costs nothing.
            speechTranscripts: createAssemblyAiSpeechGateway({ settings: config.speech, log: log.child({ provider: 'speech' }) }),
            tenants: config.tenants,
            retention: config.retention,
            log,
            audit: createAuditTrail(store, log),
          },
        }
      : {}),
    ...(temporal && config.batchLane.enabled ? { batchLane: batchLaneDeps(config, store, temporal, onLaneEvent, wired.spend) } : {}),
  };
}

function batchLaneDeps(
  config: Config,
  store: ObjectStore,
  temporal: Client,
  onEvent: (event: BatchLaneEvent) => void,
  spend: TenantSpend | undefined,
): BatchLaneDeps {
  const laneQueue = batchLaneTaskQueue(config.temporal.taskQueuePrefix);
  // The collectors run on the lane's own queue, never behind the bulk jobs' workflow tasks that feed them.
  const signalCollector = collectorSignals(
    temporal,
    { workflowId: batchCollectorWorkflowId, taskQueue: () => laneQueue, input: (model, settings) => ({ model, settings }) },
    config.batchLane.coalesceEnqueues,
  );
  return {
    store,
    ...(spend ? { spend } : {}),
    batches: messageBatches(createAnthropicClient(config.anthropic)),
    prices: config.anthropic.prices,
    settings: {
      collectWindowMs: config.batchLane.collectWindowMs,
      maxRequests: config.batchLane.maxRequests,
      pollIntervalMs: config.batchLane.pollIntervalMs,
      maxBatchBytes: MAX_BATCH_BYTES,
      giveUpAfterMs: config.batchLane.giveUpAfterMs,
      activityTaskQueue: laneQueue,
    },
    onEvent,
    ...(config.batchLane.killAt ? { reached: killAt(config.batchLane.killAt) } : {}),
    async signalCollector(model, settings, entry) {
      await signalCollector(model, settings, entry);
      onEvent({ type: 'enqueued', model });
    },
    signalJob: batchAnswerSender(temporal),
  };
}

/** Hands a job its batch entry's answer through `temporal`: `gone` when the job no longer runs (nobody waits). */
export function batchAnswerSender(temporal: Client): BatchLaneDeps['signalJob'] {
  return async (workflowId, answer) => {
    try {
      await temporal.workflow.getHandle(workflowId).signal(batchAnswerSignal, answer);
      return 'signalled';
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return 'gone';
      throw error;
    }
  };
}
