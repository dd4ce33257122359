import type { Client } from '@temporalio/client';
import {
  type BatchCollectorInput,
  type BatchCollectorSettings,
  type BatchEntry,
  batchEntriesSignal,
  batchEntrySignal,
  ENQUEUE_SIGNAL_ENTRIES,
} from '../../common/batch-lane';
import { coalescedSends } from '../../lib/coalesced-sends';
import type { BatchLaneDeps } from './batch-lane-deps';

/** Where a model's collector runs and what starts it, for signal-with-start. */
export interface CollectorAddress {
  workflowId(model: string): string;
  taskQueue(): string;
  input(model: string, settings: BatchCollectorSettings): BatchCollectorInput;
}

/**
 * The lane's signal-with-start of a model's collector. Coalesced, the entries a process enqueues while its previous
 * signal is in flight go in one batchEntriesSignal: a backfill's enqueues then cost the collector one activation per
 * round trip instead of one per entry, which at thousands buffered overran the workflow thread's time limit.
 */
export function collectorSignals(client: Client, address: CollectorAddress, coalesce: boolean): BatchLaneDeps['signalCollector'] {
  const start = (model: string, settings: BatchCollectorSettings) => ({
    workflowId: address.workflowId(model),
    taskQueue: address.taskQueue(),
    args: [address.input(model, settings)] as [BatchCollectorInput],
  });
  if (!coalesce) {
    return async (model, settings, entry) => {
      await client.workflow.signalWithStart('batchCollectorWorkflow', { ...start(model, settings), signal: batchEntrySignal, signalArgs: [entry] });
    };
  }
  const send = coalescedSends<{ settings: BatchCollectorSettings; entry: BatchEntry }>(async (model, items) => {
    // One worker's lane has one settings object; the first item's starts the collector if none runs.
    const { settings } = items[0] as { settings: BatchCollectorSettings };
    await client.workflow.signalWithStart('batchCollectorWorkflow', {
      ...start(model, settings),
      signal: batchEntriesSignal,
      signalArgs: [items.map((item) => item.entry)],
    });
  }, ENQUEUE_SIGNAL_ENTRIES);
  return (model, settings, entry) => send(model, { settings, entry });
}
