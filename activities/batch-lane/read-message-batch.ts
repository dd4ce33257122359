import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { Context } from '@temporalio/activity';
import { type BatchEntry, type BatchEntryOutcome, batchLaneKeys } from '../../common/batch-lane';
import type { BatchEntryResult } from '../../gateway/batch/message-batches';
import { type BatchLaneDeps, getJson, putJson } from './batch-lane-deps';
import { settleBatchEntrySpend } from './batch-entry-spend';

/** Answers written to the object store at once while a results file streams in. */
const WRITES_IN_FLIGHT = 32;

export type OutcomeCounts = Partial<Record<BatchEntryOutcome, number>>;

export function countOutcomes(outcomes: Iterable<BatchEntryOutcome>): OutcomeCounts {
  const counts: OutcomeCounts = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

/**
 * A batch's results, spooled to a local file first and read back from it. Read at the pace of the object-store
 * writes, a 10,000-entry results stream was closed mid-way by the other side (seen against the simulator, every
 * attempt, about 5 MB in); spooled, it is read at disk speed, and memory stays bounded whatever the batch size.
 */
async function* spooledResults(lane: BatchLaneDeps, batchId: string): AsyncIterable<BatchEntryResult> {
  const dir = await mkdtemp(join(tmpdir(), 'slowlane-batch-results-'));
  try {
    const file = join(dir, 'results.jsonl');
    const out = createWriteStream(file);
    for await (const result of lane.batches.results(batchId)) {
      if (!out.write(`${JSON.stringify(result)}\n`)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      if (line !== '') yield JSON.parse(line) as BatchEntryResult;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Stores each result as it is read back (spooledResults): a succeeded entry's message where its job reads it, its spend hold settled
 * to what it was billed. Safe to repeat: the same answer is rewritten and a hold is counted once. Returns each
 * entry's outcome; `keep` says which results to take (a harvested orphan's are only the product's own).
 */
export async function storeResults(lane: BatchLaneDeps, batchId: string, keep: (result: BatchEntryResult) => boolean = () => true): Promise<Map<string, BatchEntryOutcome>> {
  const context = Context.current();
  const outcomes = new Map<string, BatchEntryOutcome>();
  const inFlight = new Set<Promise<void>>();
  for await (const result of spooledResults(lane, batchId)) {
    if (!keep(result)) continue;
    outcomes.set(result.customId, result.outcome);
    const stored = (async () => {
      if (result.message) await putJson(lane.store, batchLaneKeys.answer(result.customId), result.message);
      await settleBatchEntrySpend(lane, result.customId, result.outcome, result.message);
      lane.reached?.('during-results-download');
    })();
    inFlight.add(stored);
    void stored.finally(() => inFlight.delete(stored)).catch(() => undefined);
    if (inFlight.size >= WRITES_IN_FLIGHT) await Promise.race(inFlight);
    if (outcomes.size % 500 === 0) context.heartbeat({ read: outcomes.size });
  }
  await Promise.all(inFlight);
  return outcomes;
}

/**
 * Reads an ended batch's results into the object store (storeResults) and writes every entry's outcome beside its
 * entries: one missing from the results counts as errored (its job asks live) and gives its spend hold back.
 */
export async function storeMessageBatchResults(lane: BatchLaneDeps, input: { batchKey: string; batchId: string }): Promise<OutcomeCounts> {
  const { entries } = await getJson<{ entries: BatchEntry[] }>(lane.store, batchLaneKeys.entries(input.batchKey));
  const read = await storeResults(lane, input.batchId);
  const outcomes: Record<string, BatchEntryOutcome> = {};
  for (const entry of entries) {
    const outcome = read.get(entry.customId);
    if (outcome === undefined) await settleBatchEntrySpend(lane, entry.customId, 'errored', undefined);
    outcomes[entry.customId] = outcome ?? 'errored';
  }
  await putJson(lane.store, batchLaneKeys.outcomes(input.batchKey), outcomes);
  const values = Object.values(outcomes);
  lane.onEvent?.({ type: 'results', outcomes: values });
  return countOutcomes(values);
}
