import {
  allHandlersFinished,
  condition,
  log,
  makeContinueAsNewFunc,
  ParentClosePolicy,
  patched,
  proxyActivities,
  setHandler,
  startChild,
  uuid4,
  workflowInfo,
  WorkflowIdReusePolicy,
} from '@temporalio/workflow';
import type { JobActivities } from '../../activities';
import {
  type BatchCollectorCarry,
  type BatchCollectorInput,
  type BatchEntry,
  batchEntriesSignal,
  batchEntrySignal,
  batchIsFull,
  entriesThatFit,
  laneWaitQuery,
  messageBatchWorkflowId,
  type OpenBatch,
} from '../../common/batch-lane';
import { PATCHES } from '../patches';
import { laneActivityOptions } from './batch-lane-options';
import { messageBatchWorkflow } from './message-batch-workflow';
import { SEGMENT_ENTRIES } from './segment-entries';

/** With nothing waiting for this long the collector ends; the next request starts a new one. */
const IDLE_END_MS = 10 * 60 * 1000;
/**
 * A run continues as new past this many events (each signal, of one entry or many, is one event), with room left under the
 * product's 10,000 for the signals that arrive while the run writes its last segment.
 */
const HISTORY_EVENTS_LIMIT = 5_000;
/** How often a long-running collector has the provider's batches reconciled (reconcile-message-batches.ts). */
const RECONCILE_EVERY_MS = 30 * 60_000;
/** How far back the reconciler looks: past the provider's 24 h expiry, with a day to spare. */
const RECONCILE_HORIZON_MS = 48 * 60 * 60_000;

/**
 * One per model (workflow id `batch-collector:<model>`, started by signal-with-start): gathers the entries the job
 * workflows enqueue into the open batch, a segment of the object store at a time, and closes it after
 * BATCH_COLLECT_WINDOW, at BATCH_MAX_REQUESTS or at MAX_BATCH_BYTES of requests by starting the batch's own workflow
 * (message-batch-workflow.ts), which submits, polls, reads and answers it. So the collector holds no batch it
 * handed over and carries into its next run only the open batch's key and counts: its history and its carried state
 * stay small whatever the batch size (docs/gateway.md#the-batch-lane-at-scale).
 */
export async function batchCollectorWorkflow(input: BatchCollectorInput): Promise<void> {
  const { settings, model } = input;
  // Entries that arrive while a run ends ride in the next run's input, and its waits wake at its event limit. Before,
  // a run wrote until nothing was pending, which a steady stream never allows (one run grew from 5,000 events to 8,570).
  const lateEntriesRide = patched(PATCHES.collectorCarriesLateEntries.id);
  const historyEventsLimit = input.historyEventsLimit ?? HISTORY_EVENTS_LIMIT;
  const pastEventLimit = () => workflowInfo().historyLength > historyEventsLimit;
  const lane = proxyActivities<JobActivities>(laneActivityOptions(settings));
  const carry = input.carry ?? {};
  /** Received in this run and not yet in a segment. */
  const pending: BatchEntry[] = [...(carry.waiting ?? [])];
  /** This run's custom ids: a repeated enqueue signal (an activity retried) is dropped here, or at submission. */
  const seen = new Set(pending.map((entry) => entry.customId));
  let open: OpenBatch | undefined = carry.open;
  let reconciledAt = carry.reconciledAt ?? 0;
  let firstArrivalAt: number | undefined = pending.length > 0 ? (carry.waitingSince ?? Date.now()) : undefined;
  const receive = (entry: BatchEntry) => {
    if (seen.has(entry.customId)) return;
    seen.add(entry.customId);
    pending.push(entry);
    firstArrivalAt ??= Date.now();
  };
  setHandler(batchEntrySignal, receive);
  // A handler adds no command: histories recorded before it replay unchanged.
  setHandler(batchEntriesSignal, (entries: BatchEntry[]) => entries.forEach(receive));
  // The open batch's first entry is the oldest; entries that did not fit in it arrived after it.
  setHandler(laneWaitQuery, () => {
    const since = open?.openedAt ?? firstArrivalAt;
    return since === undefined ? {} : { oldestWaitingSince: since };
  });

  const held = () => open ?? { entries: 0, bytes: 0 };
  /**
   * The deployment's current build is no longer the one this run is pinned to. The server says so only on a
   * workflow task, so the waits below wake on it too: the next entry's signal moves the collector, not the end of
   * a collect window or 5,000 events later (docs/deployment.md#the-batch-collector-follows-new-builds).
   */
  const newBuildIsCurrent = () => workflowInfo().targetWorkerDeploymentVersionChanged;
  const windowEndsAt = () => (open?.openedAt ?? firstArrivalAt ?? Infinity) + settings.collectWindowMs;

  /** Writes the next pending entries that fit into the open batch (at most `limit`) as one segment; says how many. */
  async function writeSegment(limit = SEGMENT_ENTRIES): Promise<number> {
    const count = Math.min(SEGMENT_ENTRIES, limit, entriesThatFit(held(), pending, settings));
    if (count === 0) return 0;
    open ??= { batchKey: uuid4().replace(/-/g, ''), openedAt: firstArrivalAt ?? Date.now(), entries: 0, bytes: 0, segments: 0 };
    const entries = pending.slice(0, count);
    await lane.writeBatchSegment({ batchKey: open.batchKey, index: open.segments, entries });
    pending.splice(0, count);
    open.segments += 1;
    open.entries += count;
    open.bytes += entries.reduce((bytes, entry) => bytes + (entry.requestBytes ?? 0), 0);
    return count;
  }

  /** Hands the open batch to its own workflow; the next entry opens another. */
  async function closeBatch(): Promise<void> {
    if (lateEntriesRide) {
      // What waits when the batch closes goes in it; what arrives while it is written waits for the next batch.
      for (let closing = pending.length; closing > 0; ) {
        const written = await writeSegment(closing);
        if (written === 0) break;
        closing -= written;
      }
    } else {
      while (pending.length > 0 && entriesThatFit(held(), pending, settings) > 0) await writeSegment();
    }
    if (open) await startBatch(open.batchKey, open.segments, { openedAt: open.openedAt });
    open = undefined;
    firstArrivalAt = pending.length > 0 ? Date.now() : undefined;
  }

  async function startBatch(batchKey: string, segments: number, known: { batchId?: string; openedAt?: number }): Promise<void> {
    await startChild(messageBatchWorkflow, {
      workflowId: messageBatchWorkflowId(model, batchKey),
      args: [{ model, batchKey, segments, settings, ...known }],
      // The batch outlives this run: the collector continues as new while its batches are still out.
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
  }

  // A collector of the earlier shape carried its submitted batches: each gets a batch workflow of its own.
  for (const batch of carry.submitted ?? []) {
    const batchKey = uuid4().replace(/-/g, '');
    await lane.writeBatchSegment({ batchKey, index: 0, entries: batch.entries });
    await startBatch(batchKey, 1, { batchId: batch.batchId });
  }

  for (;;) {
    const info = workflowInfo();
    if (info.continueAsNewSuggested || pastEventLimit() || newBuildIsCurrent()) break;
    if (Date.now() - reconciledAt >= RECONCILE_EVERY_MS) {
      reconciledAt = Date.now();
      try {
        const reconciled = await lane.reconcileMessageBatches({ horizonMs: RECONCILE_HORIZON_MS });
        if (reconciled.cancelled + reconciled.harvested > 0) log.warn('the provider had batches no workflow read', { ...reconciled });
      } catch (error) {
        log.warn('the provider’s batches could not be reconciled; trying again later', { error: String(error) });
      }
      continue;
    }
    if (batchIsFull(held(), pending, settings) || Date.now() >= windowEndsAt()) {
      await closeBatch();
      continue;
    }
    if (pending.length >= SEGMENT_ENTRIES) {
      await writeSegment();
      continue;
    }
    if (pending.length === 0 && !open) {
      if (!(await condition(() => pending.length > 0 || newBuildIsCurrent(), IDLE_END_MS))) {
        await condition(allHandlersFinished);
        if (pending.length === 0) return;
      }
      continue;
    }
    const waiting = pending.length;
    // Wake when the window ends, a segment fills, the batch fills, the first entry opens a window, a new build is
    // current, or the run has reached its event limit.
    await condition(
      () =>
        pending.length >= SEGMENT_ENTRIES ||
        batchIsFull(held(), pending, settings) ||
        (waiting === 0 && pending.length > 0 && !open) ||
        newBuildIsCurrent() ||
        (lateEntriesRide && pastEventLimit()),
      Math.max(1, windowEndsAt() - Date.now()),
    );
  }
  // What arrived in this run goes to segments, but for the last segment's worth: entries keep arriving while one is
  // written, so those ride in the next run's input.
  const carried = lateEntriesRide ? SEGMENT_ENTRIES : 0;
  while (pending.length > carried) {
    if (entriesThatFit(held(), pending, settings) === 0) await closeBatch();
    else await writeSegment();
    await condition(allHandlersFinished);
  }
  const next: BatchCollectorCarry = {
    ...(open ? { open } : {}),
    reconciledAt,
    ...(pending.length > 0 ? { waiting: pending, waitingSince: firstArrivalAt } : {}),
  };
  // A collector never idles while a backfill runs, and a pinned run's next run inherits its build: without
  // AUTO_UPGRADE it would stay on the build that first started it for as long as entries keep coming.
  await makeContinueAsNewFunc<typeof batchCollectorWorkflow>(newBuildIsCurrent() ? { initialVersioningBehavior: 'AUTO_UPGRADE' } : {})({
    ...input,
    carry: next,
  });
}
