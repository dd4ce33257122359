import { Context } from '@temporalio/activity';
import { type BatchAnswer, type BatchEntry, type BatchEntryOutcome, batchLaneKeys } from '../../common/batch-lane';
import { type BatchLaneDeps, eachWithLimit, getJson } from './batch-lane-deps';
import { settleBatchEntrySpend } from './batch-entry-spend';
import { entriesOfSegments } from './submit-message-batch';

/** Jobs signalled at once: enough to answer 10,000 entries in seconds, few enough for one client connection. */
const SIGNALS_IN_FLIGHT = 64;

export interface AnswerBatchEntriesInput {
  model: string;
  batchKey: string;
  segments: number;
  batchId?: string;
  /**
   * Every entry gets this outcome, and those never billed give their spend holds back: the batch could not be
   * submitted, or was given up. Absent, each entry gets the outcome its results gave it.
   */
  allOutcome?: Exclude<BatchEntryOutcome, 'succeeded'>;
}

export interface AnswerBatchEntriesResult {
  answered: number;
  /** Entries whose job had gone (cancelled, erased, finished live): nobody waited for the answer. */
  gone: number;
  /** Epoch ms when the last job was signalled. */
  answeredAt: number;
}

/**
 * Signals each entry's job its outcome, many at once. A retried attempt starts where the last one's heartbeat says
 * every earlier entry was answered; a repeated answer is harmless (a job takes its entry's first).
 */
export async function answerBatchEntries(lane: BatchLaneDeps, input: AnswerBatchEntriesInput): Promise<AnswerBatchEntriesResult> {
  const context = Context.current();
  const entries = input.allOutcome
    ? await entriesOfSegments(lane, input.batchKey, input.segments)
    : (await getJson<{ entries: BatchEntry[] }>(lane.store, batchLaneKeys.entries(input.batchKey))).entries;
  const outcomes = input.allOutcome
    ? undefined
    : await getJson<Record<string, BatchEntryOutcome>>(lane.store, batchLaneKeys.outcomes(input.batchKey));
  const from = (context.info.heartbeatDetails as { answeredUpTo?: number } | undefined)?.answeredUpTo ?? 0;
  const done = entries.map((_, index) => index < from);
  let answeredUpTo = from;
  let gone = 0;
  await eachWithLimit(entries.slice(from), SIGNALS_IN_FLIGHT, async (entry, offset) => {
    const outcome = input.allOutcome ?? outcomes?.[entry.customId] ?? 'errored';
    if (input.allOutcome) await settleBatchEntrySpend(lane, entry.customId, 'errored', undefined);
    const answer: BatchAnswer = { customId: entry.customId, outcome, ...(input.batchId ? { batchId: input.batchId } : {}) };
    if ((await lane.signalJob(entry.replyTo, answer)) === 'gone') {
      gone++;
      // Nobody reads it any more, and an erased job's answer (written after its erasure) must not outlive it.
      await lane.store.deleteMany([batchLaneKeys.answer(entry.customId)]);
    }
    lane.reached?.('during-answers');
    done[from + offset] = true;
    while (answeredUpTo < entries.length && done[answeredUpTo]) answeredUpTo++;
    context.heartbeat({ answeredUpTo });
  });
  const answeredAt = Date.now();
  lane.onEvent?.({ type: 'answered', model: input.model, entries: entries.length - from });
  return { answered: entries.length - from, gone, answeredAt };
}
