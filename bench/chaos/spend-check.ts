import { Redis } from 'ioredis';
import { BATCH_PRICE_FACTOR, costOf } from '../../gateway/pricing';
import { audioCostUsd } from '../../gateway/speech/speech-meter';
import { RedisSpendStore } from '../../gateway/spend/redis-spend-store';
import type { ModelPrice } from '../../lib/config';
import { CALL_LOG_LIMIT, type CallRecord } from '../../local/simulator/stats';
import type { EmbeddingStats } from '../../local/simulator/state';
import type { TranscriptionStats } from '../../local/simulator/transcriptions/transcription-stats';
import { providerStats } from './faults';

export interface SpendCheck {
  /** The tenant's month total in the spend store (Redis), after the chaos. */
  storeUsd: number;
  /**
   * What the provider billed, priced from the simulator's log of answered calls (batch entries at the batch price),
   * its embedded tokens and its transcribed audio seconds (both speech shapes), whatever the kills lost on the way.
   */
  providerBilledUsd: number;
  /**
   * Of the bill, the calls answered after their client had gone (a worker killed mid-call, a call aborted when its
   * job was erased): billed, yet no worker ever learned their cost, so nothing can settle them.
   */
  billedUndeliveredUsd: number;
  /**
   * storeUsd − (providerBilledUsd − billedUndeliveredUsd): the store against every answer the simulator sent to a
   * connected worker. Above 0, a call settled twice. Below 0 by at most heldUsd: answers that reached a worker's
   * socket but not its code (killed while its event loop had not read them yet), still held, and counted at their
   * estimate when their holds expire.
   */
  storeMinusDeliveredUsd: number;
  /**
   * What calls still hold once every job has settled: calls begun and never settled, whose holds count as spent at
   * their estimate when they expire (HOLD_TTL_MS after the call began).
   */
  heldUsd: number;
  /** Whether the store is within what was delivered: 0 ≤ delivered − store ≤ held, to ROUNDING_USD. */
  withinHeld: boolean;
  /** The sum of the jobs' recorded usage (GET /jobs/:id `usage.costUsd`); jobs whose view did not answer are left out. */
  jobsUsd: number;
  jobsRead: number;
  /**
   * storeUsd − jobsUsd: calls paid but recorded on no job, which is expected under kills (a worker killed after its
   * call was paid; the step's retry pays again) and for the jobs erased mid-run, whose views are gone.
   */
  differenceUsd: number;
}

/** Float sums of a few hundred small costs differ by less than this; anything more is money astray. */
const ROUNDING_USD = 0.00001;

/** The provider's bill for a run, and the part of it whose answers reached no client. */
export interface ProviderBill {
  billedUsd: number;
  undeliveredUsd: number;
}

/** The prices the bill is made at: each the product's own setting, as the spend store was settled at. */
export interface BillPrices {
  models: Record<string, ModelPrice>;
  embeddingsPricePerMTok: number;
  speechPricePerMinute: number;
}

/**
 * The provider's bill for the run: every answered call in the simulator's log at its model's price, every embedded
 * token at the embeddings price, and every billed audio second at the speech price, as the spend store counts them
 * all. The simulator serves one tenant's run here, so it is that tenant's bill.
 */
export async function providerBill(simulatorUrl: string, prices: BillPrices): Promise<ProviderBill> {
  const stats = await providerStats(simulatorUrl);
  if (stats.requests > CALL_LOG_LIMIT) throw new Error(`the simulator logged only the last ${CALL_LOG_LIMIT} of ${stats.requests} calls`);
  const { calls } = (await (await fetch(`${simulatorUrl}/_sim/calls?status=200`)).json()) as { calls: CallRecord[] };
  const embedded = (await (await fetch(`${simulatorUrl}/_sim/embeddings/stats`)).json()) as EmbeddingStats;
  const transcribed = (await (await fetch(`${simulatorUrl}/_sim/transcriptions/stats`)).json()) as TranscriptionStats;
  const priced = (call: CallRecord) => {
    const price = call.model ? prices.models[call.model] : undefined;
    if (!price) throw new Error(`no price for model ${call.model}`);
    return costOf(call, price) * (call.lane === 'batch' ? BATCH_PRICE_FACTOR : 1);
  };
  const embeddingsUsd = (tokens: number) => (tokens * prices.embeddingsPricePerMTok) / 1_000_000;
  const audioUsd = (seconds: number) => audioCostUsd(seconds, prices.speechPricePerMinute);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    billedUsd: sum(calls.map(priced)) + embeddingsUsd(embedded.tokens) + audioUsd(transcribed.billedAudioSeconds),
    undeliveredUsd:
      sum(calls.filter((call) => call.undelivered).map(priced)) +
      embeddingsUsd(embedded.undeliveredTokens) +
      audioUsd(transcribed.undeliveredAudioSeconds),
  };
}

/**
 * The spend store's total for the tenant against what its jobs recorded. The month window, not the day's: a run near
 * midnight UTC would split the day's total in two.
 */
export async function checkSpend(options: {
  redisUrl: string;
  keyPrefix: string;
  tenantId: string;
  apiUrl: string;
  apiKey: string;
  jobIds: string[];
  simulatorUrl: string;
  prices: BillPrices;
}): Promise<SpendCheck> {
  const bill = await providerBill(options.simulatorUrl, options.prices);
  // Read through the store itself: its keys and fields are its own business (it once moved the totals into a hash,
  // and a hand-built key then read 0).
  const store = new RedisSpendStore(new Redis(options.redisUrl, { maxRetriesPerRequest: 1 }), { keyPrefix: options.keyPrefix });
  let storeUsd: number;
  let heldUsd: number;
  try {
    ({ month: storeUsd, held: heldUsd } = await store.totalsOn(options.tenantId, new Date().toISOString().slice(0, 10)));
  } finally {
    await store.close();
  }
  let jobsUsd = 0;
  let jobsRead = 0;
  for (const jobId of options.jobIds) {
    const view = (await fetch(`${options.apiUrl}/jobs/${encodeURIComponent(jobId)}`, {
      headers: { authorization: `Bearer ${options.apiKey}` },
    })
      .then((response) => response.json())
      .catch(() => undefined)) as { usage?: { costUsd?: number } } | undefined;
    if (view?.usage?.costUsd === undefined) continue;
    jobsUsd += view.usage.costUsd;
    jobsRead += 1;
  }
  const round = (usd: number) => Math.round(usd * 1e6) / 1e6;
  const unsettled = bill.billedUsd - bill.undeliveredUsd - storeUsd;
  return {
    storeUsd: round(storeUsd),
    providerBilledUsd: round(bill.billedUsd),
    billedUndeliveredUsd: round(bill.undeliveredUsd),
    storeMinusDeliveredUsd: round(-unsettled),
    heldUsd: round(heldUsd),
    withinHeld: unsettled >= -ROUNDING_USD && unsettled <= heldUsd + ROUNDING_USD,
    jobsUsd: round(jobsUsd),
    jobsRead,
    differenceUsd: round(storeUsd - jobsUsd),
  };
}
