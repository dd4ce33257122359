import {
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  log,
  patched,
  proxyActivities,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { JobActivities } from '../../activities';
import {
  type BatchAnswer,
  type BatchCollectorCarry,
  type BatchCollectorInput,
  type BatchEntry,
  type BatchEntryOutcome,
  batchAnswerSignal,
  batchEntrySignal,
  batchIsFull,
  entriesForNextBatch,
} from '../../common/batch-lane';
import { batchLaneOptions } from './batch-lane-options';

const lane = proxyActivities<JobActivities>(batchLaneOptions);

/** Collectors that ran before entries were held against spend caps release nothing on replay. */
export const BATCH_SPEND_RELEASE_PATCH = 'batch-lane-spend-release';

/** With nothing waiting and nothing submitted for this long the collector ends; the next request starts a new one. */
const IDLE_END_MS = 10 * 60 * 1000;
/** How many answered custom ids a collector remembers, to drop a repeated enqueue of one of them. */
const ANSWERED_MEMORY = 5_000;
/** Continue-as-new well before Temporal's suggestion, so one batch's signals never push a run over its limits. */
const HISTORY_EVENTS_LIMIT = 10_000;

/**
 * One per model (workflow id `batch-collector:<model>`, started by signal-with-start): gathers the entries the job
 * workflows enqueue for up to BATCH_COLLECT_WINDOW, BATCH_MAX_REQUESTS or MAX_BATCH_BYTES of requests, submits them as one Message Batch, polls
 * it on durable timers and signals each waiting workflow its own answer. An entry whose batch could not be
 * submitted is answered `errored`, so its job takes the live path. Continues as new to keep its history short.
 */
export async function batchCollectorWorkflow(input: BatchCollectorInput): Promise<void> {
  const { settings } = input;
  const carry: BatchCollectorCarry = input.carry ?? { waiting: [], submitted: [], answered: [] };
  const known = new Set([
    ...carry.waiting.map((entry) => entry.customId),
    ...carry.submitted.flatMap((batch) => batch.entries.map((entry) => entry.customId)),
    ...carry.answered,
  ]);
  let windowOpenedAt: number | undefined = carry.waiting.length > 0 ? Date.now() : undefined;
  setHandler(batchEntrySignal, (entry: BatchEntry) => {
    if (known.has(entry.customId)) return;
    known.add(entry.customId);
    carry.waiting.push(entry);
    windowOpenedAt ??= Date.now();
  });

  async function answer(entries: BatchEntry[], outcomeOf: (customId: string) => BatchEntryOutcome, batchId?: string) {
    for (const entry of entries) {
      const message: BatchAnswer = { customId: entry.customId, outcome: outcomeOf(entry.customId), ...(batchId ? { batchId } : {}) };
      try {
        await getExternalWorkflowHandle(entry.replyTo).signal(batchAnswerSignal, message);
      } catch (error) {
        // The job is gone (cancelled, timed out, took the live path and finished): nobody waits for this answer.
        log.info('a batch answer found no waiting workflow', { customId: entry.customId, error: String(error) });
      }
      carry.answered.push(entry.customId);
    }
    carry.answered.splice(0, Math.max(0, carry.answered.length - ANSWERED_MEMORY));
  }

  /** Entries never billed give their spend holds back now rather than when the holds expire (a day later). */
  async function release(entries: BatchEntry[]): Promise<void> {
    if (entries.length === 0 || !patched(BATCH_SPEND_RELEASE_PATCH)) return;
    try {
      await lane.releaseBatchEntrySpend({ customIds: entries.map((entry) => entry.customId) });
    } catch (error) {
      log.warn('spend holds could not be released; they expire by themselves', { entries: entries.length, error: String(error) });
    }
  }

  async function submit(): Promise<void> {
    const entries = carry.waiting.splice(0, entriesForNextBatch(carry.waiting, settings));
    windowOpenedAt = carry.waiting.length > 0 ? Date.now() : undefined;
    try {
      // The key is chosen here, in history, so every retry of this submission carries the same one.
      const { batchId } = await lane.submitMessageBatch({
        model: input.model,
        submissionKey: uuid4(),
        customIds: entries.map((entry) => entry.customId),
      });
      carry.submitted.push({ batchId, entries });
    } catch (error) {
      log.warn('a batch could not be submitted; its jobs take the live path', { entries: entries.length, error: String(error) });
      await release(entries);
      await answer(entries, () => 'errored');
    }
  }

  async function pollSubmitted(): Promise<void> {
    for (const batch of [...carry.submitted]) {
      let outcomes: Record<string, BatchEntryOutcome> | undefined;
      try {
        if (!(await lane.messageBatchHasEnded({ batchId: batch.batchId }))) continue;
        outcomes = await lane.storeMessageBatchResults({ batchId: batch.batchId });
      } catch (error) {
        log.warn('a batch could not be read; trying again at the next poll', { batchId: batch.batchId, error: String(error) });
        continue;
      }
      // An entry missing from the results is treated as errored: its job asks live rather than wait for ever.
      await release(batch.entries.filter((entry) => outcomes[entry.customId] === undefined));
      await answer(batch.entries, (customId) => outcomes[customId] ?? 'errored', batch.batchId);
      carry.submitted.splice(carry.submitted.indexOf(batch), 1);
    }
  }

  let nextPollAt = Date.now() + settings.pollIntervalMs;
  for (;;) {
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > HISTORY_EVENTS_LIMIT) break;
    const windowEndsAt = windowOpenedAt === undefined ? undefined : windowOpenedAt + settings.collectWindowMs;
    if (batchIsFull(carry.waiting, settings) || (windowEndsAt !== undefined && Date.now() >= windowEndsAt)) {
      await submit();
      continue;
    }
    if (carry.submitted.length > 0 && Date.now() >= nextPollAt) {
      await pollSubmitted();
      nextPollAt = Date.now() + settings.pollIntervalMs;
      continue;
    }
    if (carry.waiting.length === 0 && carry.submitted.length === 0) {
      if (!(await condition(() => carry.waiting.length > 0, IDLE_END_MS))) {
        await condition(allHandlersFinished);
        if (carry.waiting.length === 0) return;
      }
      continue;
    }
    const wakeAt = Math.min(windowEndsAt ?? Infinity, carry.submitted.length > 0 ? nextPollAt : Infinity);
    const waiting = carry.waiting.length;
    // Wake at the next deadline, when the batch fills up, or when the first entry opens a window.
    await condition(
      () => batchIsFull(carry.waiting, settings) || (waiting === 0 && carry.waiting.length > 0),
      Math.max(1, wakeAt - Date.now()),
    );
  }
  await condition(allHandlersFinished);
  await continueAsNew<typeof batchCollectorWorkflow>({ ...input, carry });
}
