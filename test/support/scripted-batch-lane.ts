import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { BatchLaneDeps } from '../../activities/batch-lane/batch-lane-deps';
import { collectorSignals } from '../../activities/batch-lane/collector-signals';
import { createCollectorActivities } from '../../activities/batch-lane/collector-activities';
import type { EnqueueBatchEntryInput } from '../../activities/batch-lane/enqueue-batch-entry';
import {
  type BatchCollectorSettings,
  type BatchEntry,
  type BatchEntryOutcome,
  type BatchLaneStep,
  batchLaneKeys,
} from '../../common/batch-lane';
import type { BatchToolCall } from '../../gateway/batch/message-batches';
import type { TenantSpend } from '../../gateway/spend/tenant-spend';
import { DEFAULT_PRICES } from '../../lib/config/model-prices';
import { batchAnswerSender } from '../../workers/activity-deps';
import { memoryStore } from './memory-store';
import { scriptedMessageBatches } from './scripted-message-batches';

export interface ScriptedLaneOptions {
  maxRequests?: number;
  /** The provider refuses every submission: the entries come back `errored`. */
  failSubmit?: boolean;
  /** Batches never end: the jobs wait until their deadline margin. */
  neverEnds?: boolean;
  /** Each entry's fate by the step it came from (default `succeeded`). */
  outcomeOf?: (step: BatchLaneStep) => BatchEntryOutcome;
  /** How long a batch is unreadable before it is given up (default: the product's). */
  giveUpAfterMs?: number;
  /** The collector continues as new past this many events (default: its own limit). */
  historyEventsLimit?: number;
  /** One signal per entry, as BATCH_COALESCE_ENQUEUES=false sends them (default: coalesced, as the product does). */
  coalesceEnqueues?: boolean;
}

/**
 * The lane with its real collector and batch workflows and their real activities, over an object store in memory
 * and a scripted provider (scripted-message-batches.ts): enqueue writes the step's request and signals-with-start a
 * collector of the test's own on the worker's queue. `enqueued` records which step asked, in order; `released`
 * the entries whose spend holds went back unbilled; `batches` each batch's custom ids.
 */
export function scriptedBatchLane(client: Client, options: ScriptedLaneOptions = {}) {
  const collectorId = `batch-collector:test-${randomUUID()}`;
  const store = memoryStore();
  const provider = scriptedMessageBatches({
    ...(options.neverEnds ? { neverEnds: true } : {}),
    ...(options.failSubmit ? { failCreate: true } : {}),
    outcomeOf: (call) => options.outcomeOf?.(call.tool.name as BatchLaneStep) ?? 'succeeded',
  });
  const released: string[] = [];
  const enqueued: EnqueueBatchEntryInput[] = [];
  const settings: BatchCollectorSettings = {
    collectWindowMs: 300,
    maxRequests: options.maxRequests ?? 50,
    pollIntervalMs: 200,
    ...(options.giveUpAfterMs !== undefined ? { giveUpAfterMs: options.giveUpAfterMs } : {}),
  };
  /** Records which holds were given back unbilled; nothing else of the caps is under test here. */
  const spend = {
    async settleKeyed(hold, costUsd) {
      if (costUsd === 0) released.push(hold.id);
    },
  } as Partial<TenantSpend> as TenantSpend;
  const lane: BatchLaneDeps = {
    store,
    batches: provider.api,
    prices: DEFAULT_PRICES,
    settings,
    spend,
    signalCollector: collectorSignals(
      client,
      {
        workflowId: () => collectorId,
        taskQueue: () => Context.current().info.taskQueue,
        input: (model, laneSettings) => ({
          model,
          settings: laneSettings,
          ...(options.historyEventsLimit !== undefined ? { historyEventsLimit: options.historyEventsLimit } : {}),
        }),
      },
      options.coalesceEnqueues ?? true,
    ),
    signalJob: batchAnswerSender(client),
  };
  const enqueue = async (step: BatchLaneStep, entry: BatchEntry) => {
    const call = { model: 'test-model', tool: { name: step } } as unknown as BatchToolCall;
    await store.put(batchLaneKeys.request(entry.customId), JSON.stringify(call), { contentType: 'application/json' });
    const hold = { hold: { tenantId: 'test', id: entry.customId, usd: 0.01 }, model: 'test-model' };
    await store.put(batchLaneKeys.spendHold(entry.customId), JSON.stringify(hold), { contentType: 'application/json' });
    await lane.signalCollector('test-model', settings, { customId: entry.customId, replyTo: entry.replyTo, requestBytes: 1_000 });
  };
  const activities = {
    ...createCollectorActivities(lane),
    async enqueueBatchEntry(input: EnqueueBatchEntryInput): Promise<void> {
      enqueued.push(input);
      await enqueue(input.step, input);
    },
  };
  const batches = () => provider.batches.map((batch) => batch.customIds);
  return { activities, batches, enqueued, collectorId, released, provider, store, lane };
}
