import { Counter, Gauge, type Registry } from 'prom-client';
import type { BatchEntryOutcome } from '../common/batch-lane';
import { METRIC_PREFIX } from './metrics';

/** What the batch lane does, as the worker's batch-lane activities see it (workers/activity-deps.ts emits these). */
export type BatchLaneEvent =
  | { type: 'enqueued'; model: string }
  | { type: 'submitted'; model: string; entries: number; at: number }
  | { type: 'results'; outcomes: readonly BatchEntryOutcome[] }
  | { type: 'answered'; model: string; entries: number }
  /** A batch an interrupted submission created without recording it, cancelled. */
  | { type: 'orphan'; model: string }
  /** An ended batch no workflow read, whose results the reconciler stored. */
  | { type: 'harvested'; entries: number }
  /** A batch's status, read by its workflow at each poll. */
  | { type: 'polled'; model: string; batchId: string; createdAt: number; ended: boolean }
  /** A batch unreadable for BATCH_GIVE_UP_AFTER: its jobs went live. */
  | { type: 'given-up'; model: string };

/**
 * The Message Batches lane: entries in, batches out, entries back by outcome. Counted where the calls are made (the
 * activities), so every worker process counts what it did; sum over workers. The collector's age is
 * `time() - max(slowlane_batch_lane_last_submit_timestamp_seconds)`: how long since any collector submitted.
 */
export function createBatchLaneMetrics(registry: Registry) {
  const registers = [registry];
  const name = (suffix: string) => `${METRIC_PREFIX}batch_lane_${suffix}`;
  return {
    enqueued: new Counter({
      name: name('entries_enqueued_total'),
      help: 'Model requests handed to a batch collector (a retried enqueue counts again; the collector drops it)',
      labelNames: ['model'] as const,
      registers,
    }),
    submittedEntries: new Counter({
      name: name('entries_submitted_total'),
      help: 'Model requests sent to the provider inside a Message Batch',
      labelNames: ['model'] as const,
      registers,
    }),
    batches: new Counter({
      name: name('batches_submitted_total'),
      help: 'Message Batches created at the provider',
      labelNames: ['model'] as const,
      registers,
    }),
    results: new Counter({
      name: name('entry_results_total'),
      help: 'Batch entries read back, by outcome (succeeded; errored, expired, canceled: their jobs ask live)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    answered: new Counter({
      name: name('entries_answered_total'),
      help: 'Batch entries whose job was signalled its outcome',
      labelNames: ['model'] as const,
      registers,
    }),
    orphans: new Counter({
      name: name('orphan_batches_total'),
      help: 'Batches an interrupted submission created without recording them, cancelled (their entries went in another batch)',
      labelNames: ['model'] as const,
      registers,
    }),
    harvested: new Counter({
      name: name('harvested_batches_total'),
      help: 'Ended batches no workflow read, whose results the reconciler stored',
      registers,
    }),
    givenUp: new Counter({
      name: name('batches_given_up_total'),
      help: 'Batches unreadable for BATCH_GIVE_UP_AFTER: cancelled, their jobs sent live (alert SlowlaneBatchGivenUp)',
      labelNames: ['model'] as const,
      registers,
    }),
    oldestUnended: new Gauge({
      name: name('oldest_unended_batch_age_seconds'),
      help: 'Age of the oldest batch this worker polled lately that had not ended (most end within an hour; the provider expires them at 24 h)',
      labelNames: ['model'] as const,
      registers,
    }),
    lastSubmit: new Gauge({
      name: name('last_submit_timestamp_seconds'),
      help: 'When this worker last created a Message Batch for the model (epoch seconds; take max over workers)',
      labelNames: ['model'] as const,
      registers,
    }),
  };
}

/** The listener that keeps the batch-lane metrics. */
export function batchLaneMetricsListener(registry: Registry): (event: BatchLaneEvent) => void {
  const metrics = createBatchLaneMetrics(registry);
  /** Per model, the batches polled lately: batch id → when created and when last seen unended. */
  const unended = new Map<string, Map<string, { createdAt: number; seenAt: number }>>();
  const recordPoll = (event: Extract<BatchLaneEvent, { type: 'polled' }>) => {
    const batches = unended.get(event.model) ?? new Map<string, { createdAt: number; seenAt: number }>();
    unended.set(event.model, batches);
    const now = Date.now();
    if (event.ended) batches.delete(event.batchId);
    else batches.set(event.batchId, { createdAt: event.createdAt, seenAt: now });
    // A batch not polled for ten minutes went to another worker, or its workflow ended: it no longer counts here.
    for (const [batchId, seen] of batches) if (now - seen.seenAt > 10 * 60_000) batches.delete(batchId);
    const oldest = Math.min(now, ...[...batches.values()].map((seen) => seen.createdAt));
    metrics.oldestUnended.set({ model: event.model }, (now - oldest) / 1000);
  };
  return (event) => {
    switch (event.type) {
      case 'enqueued':
        metrics.enqueued.inc({ model: event.model });
        return;
      case 'submitted':
        metrics.batches.inc({ model: event.model });
        metrics.submittedEntries.inc({ model: event.model }, event.entries);
        metrics.lastSubmit.set({ model: event.model }, event.at / 1000);
        return;
      case 'results':
        for (const outcome of event.outcomes) metrics.results.inc({ outcome });
        return;
      case 'answered':
        metrics.answered.inc({ model: event.model }, event.entries);
        return;
      case 'orphan':
        metrics.orphans.inc({ model: event.model });
        return;
      case 'harvested':
        metrics.harvested.inc();
        return;
      case 'given-up':
        metrics.givenUp.inc({ model: event.model });
        return;
      case 'polled':
        recordPoll(event);
        return;
    }
  };
}
