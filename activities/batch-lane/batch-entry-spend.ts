import { batchLaneKeys, type BatchEntryOutcome } from '../../common/batch-lane';
import { batchCostOf, type BatchEntryMessage } from '../../gateway/batch/batch-answer';
import type { BatchToolCall } from '../../gateway/batch/message-batches';
import { messageParams, promptCharactersOf } from '../../gateway/message-params';
import { BATCH_PRICE_FACTOR } from '../../gateway/pricing';
import { mostItCostsOf } from '../../gateway/spend/spend-capped-gateway';
import type { SpendHold } from '../../gateway/spend/spend-store';
import { type BatchLaneDeps, getJson, putJson } from './batch-lane-deps';

/**
 * How long an entry's hold lives: the provider expires a batch 24 h after it is created (platform.claude.com/docs/en/build-with-claude/batch-processing), plus the
 * collect window and polling before and after it, with room to spare. A hold nobody settled (its results were never
 * read) stops counting then.
 */
export const BATCH_ENTRY_HOLD_TTL_MS = 26 * 60 * 60_000;

/** What enqueueBatchEntry leaves in S3 for whoever reads the entry's batch results. */
interface StoredHold {
  hold: SpendHold;
  model: string;
}

/**
 * Holds the most the entry can cost at the batch price against its tenant's caps, keyed by its custom id: a retried
 * enqueue holds nothing more. A refusal is the live path's TenantSpendCapReachedError (not retryable).
 */
export async function holdBatchEntrySpend(lane: BatchLaneDeps, customId: string, call: BatchToolCall): Promise<void> {
  if (!lane.spend || call.tenantId === undefined) return;
  const characters = promptCharactersOf(messageParams(call));
  const hold = await lane.spend.holdFor(call.tenantId, {
    id: customId,
    ttlMs: BATCH_ENTRY_HOLD_TTL_MS,
    mostItCosts: () => mostItCostsOf(call, characters, lane.prices[call.model]) * BATCH_PRICE_FACTOR,
  });
  await putJson(lane.store, batchLaneKeys.spendHold(customId), { hold, model: call.model } satisfies StoredHold);
}

/**
 * Settles an entry's hold once its batch has ended, to what the provider billed: a succeeded entry its tokens at the
 * batch price (whether or not its job still reads it, or was erased: it is billed either way), any other outcome
 * nothing. The store counts a hold id once, so a retried read of the results does not count it again; and it counts
 * it though the hold itself is gone (expired, or lost with a Redis restart), since the provider billed it.
 */
export async function settleBatchEntrySpend(
  lane: BatchLaneDeps,
  customId: string,
  outcome: BatchEntryOutcome,
  message: BatchEntryMessage | undefined,
): Promise<void> {
  const key = batchLaneKeys.spendHold(customId);
  if (!lane.spend || !(await lane.store.exists(key))) return;
  const { hold, model } = await getJson<StoredHold>(lane.store, key);
  const cost = outcome === 'succeeded' && message ? batchCostOf(message, lane.prices[model]) : 0;
  await lane.spend.settleKeyed(hold, cost);
}
