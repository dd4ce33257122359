import { Redis } from 'ioredis';
import { RedisSpendStore } from '../../gateway/spend/redis-spend-store';

export interface SpendCheck {
  /** The tenant's month total in the spend store (Redis), after the chaos. */
  storeUsd: number;
  /** The sum of the jobs' recorded usage (GET /jobs/:id `usage.costUsd`); jobs whose view did not answer are left out. */
  jobsUsd: number;
  jobsRead: number;
  /** storeUsd − jobsUsd: above 0, calls paid but recorded on no job (a result lost with a worker); below, settles lost. */
  differenceUsd: number;
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
}): Promise<SpendCheck> {
  // Read through the store itself: its keys and fields are its own business (it once moved the totals into a hash,
  // and a hand-built key then read 0).
  const store = new RedisSpendStore(new Redis(options.redisUrl, { maxRetriesPerRequest: 1 }), { keyPrefix: options.keyPrefix });
  let storeUsd: number;
  try {
    storeUsd = (await store.totalsOn(options.tenantId, new Date().toISOString().slice(0, 10))).month;
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
  return { storeUsd: round(storeUsd), jobsUsd: round(jobsUsd), jobsRead, differenceUsd: round(storeUsd - jobsUsd) };
}
