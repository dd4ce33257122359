import { Context, log } from '@temporalio/activity';
import { type BatchEntry, batchLaneKeys } from '../../common/batch-lane';
import type { BatchToolCall, MessageBatchStatus } from '../../gateway/batch/message-batches';
import { type BatchLaneDeps, eachWithLimit, getJson, putJson } from './batch-lane-deps';

/** Object-store reads in flight while a batch is put together. */
const READS_IN_FLIGHT = 32;
/** The provider's clock and ours may differ by this much when an orphan's creation time is compared with ours. */
const CLOCK_SKEW_MS = 60_000;

/** What the batch workflow submits: the entries the collector wrote in `segments` segments. */
export interface SubmitMessageBatchInput {
  model: string;
  batchKey: string;
  segments: number;
}

/**
 * Written before the batch is created, and again with its id once it exists. A retried submission that finds it
 * without an id may have created a batch it never recorded: it cancels that orphan before creating another.
 */
export interface BatchIntent {
  model: string;
  batchKey: string;
  entries: number;
  /** Epoch ms when the attempt that may have created the batch began. */
  attemptStartedAt: number;
  batchId?: string;
}

/** The index entry of a provider batch the product knows (batchLaneKeys.batchId): how the reconciler knows it. */
export interface KnownBatch {
  batchKey: string;
  model: string;
  /** `orphan`: created by an attempt that did not record it, cancelled and read by the reconciler. */
  kind: 'lane' | 'orphan' | 'foreign';
  /** An orphan whose results the reconciler stored. */
  harvested?: boolean;
}

/** A closed batch's entries, each once, in the order the collector received them. */
export async function entriesOfSegments(lane: BatchLaneDeps, batchKey: string, segments: number): Promise<BatchEntry[]> {
  const seen = new Set<string>();
  const entries: BatchEntry[] = [];
  for (let index = 0; index < segments; index++) {
    const segment = await getJson<{ entries: BatchEntry[] }>(lane.store, batchLaneKeys.segment(batchKey, index));
    for (const entry of segment.entries) {
      if (seen.has(entry.customId)) continue;
      seen.add(entry.customId);
      entries.push(entry);
    }
  }
  return entries;
}

/**
 * Creates the batch once, whatever happens to the attempts: the intent is recorded first, the batch id right after
 * the provider answers, and a retry that finds an intent without an id cancels any batch of that size created
 * since (its entries unbilled: it had just started) before creating its own. Each entry's request is read from the
 * object store and deleted once the batch is recorded: an entry enqueued twice (a retried enqueue after its signal
 * landed) finds no request the second time and is dropped, so no entry is ever sent in two batches.
 */
export async function submitMessageBatch(lane: BatchLaneDeps, input: SubmitMessageBatchInput): Promise<{ batchId?: string; entries: number }> {
  const { store } = lane;
  const context = Context.current();
  const intentKey = batchLaneKeys.intent(input.batchKey);
  const earlier = (await store.exists(intentKey)) ? await getJson<BatchIntent>(store, intentKey) : undefined;
  if (earlier?.batchId) return { batchId: earlier.batchId, entries: earlier.entries };
  const entries = await entriesOfSegments(lane, input.batchKey, input.segments);
  if (earlier) {
    const adopted = await adoptOrCancelUnrecorded(lane, earlier, new Set(entries.map((entry) => entry.customId)));
    if (adopted) return recordBatch(lane, earlier, adopted, entries);
  }

  const requests: Array<{ customId: string; call: BatchToolCall } | undefined> = new Array(entries.length);
  await eachWithLimit(
    entries,
    READS_IN_FLIGHT,
    async (entry, index) => {
      const key = batchLaneKeys.request(entry.customId);
      if (await store.exists(key)) requests[index] = { customId: entry.customId, call: await getJson<BatchToolCall>(store, key) };
    },
    (done) => context.heartbeat({ read: done }),
  );
  const sent = entries.filter((_, index) => requests[index] !== undefined);
  if (sent.length < entries.length) {
    log.info('entries already sent in an earlier batch were dropped', { batchKey: input.batchKey, dropped: entries.length - sent.length });
  }
  await putJson(store, batchLaneKeys.entries(input.batchKey), { entries: sent });
  if (sent.length === 0) return { entries: 0 };

  const intent: BatchIntent = { model: input.model, batchKey: input.batchKey, entries: sent.length, attemptStartedAt: Date.now() };
  await putJson(store, intentKey, intent);
  await putJson(store, batchLaneKeys.creating(input.batchKey), intent);
  lane.reached?.('before-create');
  const beat = setInterval(() => context.heartbeat({ creating: sent.length }), 2_000);
  let batchId: string;
  try {
    batchId = await lane.batches.create(requests.filter((request) => request !== undefined));
  } finally {
    clearInterval(beat);
  }
  lane.reached?.('between-create-and-record');
  return recordBatch(lane, intent, batchId, sent);
}

/** Records the batch under its id and its intent, and lets go of the requests it carries. */
async function recordBatch(lane: BatchLaneDeps, intent: BatchIntent, batchId: string, sent: BatchEntry[]): Promise<{ batchId: string; entries: number }> {
  const { store } = lane;
  await putJson(store, batchLaneKeys.batchId(batchId), { batchKey: intent.batchKey, model: intent.model, kind: 'lane' } satisfies KnownBatch);
  await putJson(store, batchLaneKeys.intent(intent.batchKey), { ...intent, batchId });
  await store.deleteMany([batchLaneKeys.creating(intent.batchKey)]);
  lane.onEvent?.({ type: 'submitted', model: intent.model, entries: sent.length, at: Date.now() });
  await store.deleteMany(sent.map((entry) => batchLaneKeys.request(entry.customId)));
  return { batchId, entries: sent.length };
}

/**
 * The batches an earlier attempt of this intent may have created without recording: created since it began, of its
 * size, and known to no index.
 */
async function unrecordedBatchesOf(lane: BatchLaneDeps, intent: BatchIntent): Promise<MessageBatchStatus[]> {
  const candidates: MessageBatchStatus[] = [];
  for await (const batch of lane.batches.list()) {
    if (batch.createdAt < intent.attemptStartedAt - CLOCK_SKEW_MS) break;
    if (batch.requests === intent.entries && !(await lane.store.exists(batchLaneKeys.batchId(batch.batchId)))) candidates.push(batch);
  }
  return candidates;
}

/** The custom id of an ended batch's first result: enough to tell whose batch it is (ids are random per entry). */
export async function firstCustomIdOf(lane: BatchLaneDeps, batchId: string): Promise<string | undefined> {
  for await (const result of lane.batches.results(batchId)) return result.customId;
  return undefined;
}

/**
 * A retried submission's look for the batch its interrupted attempt may have created: one that has ended can be
 * recognised by its results' custom ids and is adopted (it was billed: creating another would bill again); one still
 * running cannot be, and is cancelled (cancelAsOrphans).
 */
async function adoptOrCancelUnrecorded(lane: BatchLaneDeps, intent: BatchIntent, ours: Set<string>): Promise<string | undefined> {
  const candidates = await unrecordedBatchesOf(lane, intent);
  for (const batch of candidates.filter((candidate) => candidate.ended)) {
    const first = await firstCustomIdOf(lane, batch.batchId);
    if (first !== undefined && ours.has(first)) {
      log.warn('a batch created by an interrupted submission was found ended and adopted', { batchId: batch.batchId, batchKey: intent.batchKey });
      return batch.batchId;
    }
  }
  await cancelAsOrphans(lane, intent, candidates);
  return undefined;
}

/**
 * Cancels the batches an earlier attempt of this intent may have created without recording (the provider bills none
 * of the entries it has not answered) and indexes each as an orphan, which the reconciler reads once it has ended.
 */
export async function cancelUnrecordedBatches(lane: BatchLaneDeps, intent: BatchIntent): Promise<number> {
  const candidates = await unrecordedBatchesOf(lane, intent);
  await cancelAsOrphans(lane, intent, candidates);
  return candidates.length;
}

async function cancelAsOrphans(lane: BatchLaneDeps, intent: BatchIntent, batches: MessageBatchStatus[]): Promise<void> {
  for (const batch of batches) {
    if (!batch.ended) await lane.batches.cancel(batch.batchId);
    const known: KnownBatch = { batchKey: intent.batchKey, model: intent.model, kind: 'orphan' };
    await putJson(lane.store, batchLaneKeys.batchId(batch.batchId), known);
    log.warn('a batch created by an interrupted submission was cancelled', { batchId: batch.batchId, batchKey: intent.batchKey });
    lane.onEvent?.({ type: 'orphan', model: intent.model });
  }
}
