import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { RedisSpendStore } from '../gateway/spend/redis-spend-store';
import { loadConfig } from '../lib/config';
import { connectClient } from '../lib/temporal-connection';
import { type Reconciliation, reconcileTenantDay } from './spend-reconcile';
import { runCommand } from './run-command';

const USAGE = `npm run spend -- reconcile [options]

Compares each tenant's spend total in the spend store (REDIS_URL, SPEND_REDIS_PREFIX) for a UTC day with the usage
its jobs recorded (found through Temporal visibility), and prints the differences. Exits 1 when a tenant's total
differs by more than a cent from what its jobs allow, 0 otherwise.

  --tenant <id>       one tenant (default: every tenant of SLOWLANE_TENANTS)
  --day <YYYY-MM-DD>  the UTC day (default: today)
  --json              print the reconciliations as JSON`;

function describe(result: Reconciliation): string {
  const usd = (value: number) => value.toFixed(6);
  const verdict = result.differenceUsd === 0 ? 'ok' : `DIFFERENCE ${result.differenceUsd > 0 ? '+' : ''}${usd(result.differenceUsd)} USD`;
  const lines = [
    `${result.tenantId} ${result.day}: store ${usd(result.storeUsd)} USD; jobs within the day ${usd(result.withinDayUsd)}, straddling it ${usd(result.straddlingUsd)} (${result.jobs} jobs) — ${verdict}`,
  ];
  if (result.unread.length > 0) lines.push(`  usage unread for ${result.unread.length} jobs (no worker answered, or cancelled/terminated): ${result.unread.join(', ')}`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { tenant: { type: 'string' }, day: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } },
  });
  if (values.help || positionals[0] !== 'reconcile') {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  if (!config.gateway.redisUrl) {
    throw new Error('reconcile needs REDIS_URL: without Redis each worker process counts its own spend and there is no shared total to read');
  }
  const tenants = values.tenant ? [values.tenant] : config.tenants.map((tenant) => tenant.id);
  const day = values.day ?? new Date().toISOString().slice(0, 10);
  const redis = new Redis(config.gateway.redisUrl, { maxRetriesPerRequest: 1, connectionName: 'slowlane-spend-reconcile' });
  const store = new RedisSpendStore(redis, { keyPrefix: config.spend.redisKeyPrefix });
  const client = await connectClient(config.temporal);
  try {
    const results: Reconciliation[] = [];
    for (const tenantId of tenants) results.push(await reconcileTenantDay({ client, store }, tenantId, day));
    console.log(values.json ? JSON.stringify(results, null, 2) : results.map(describe).join('\n'));
    return results.some((result) => result.differenceUsd !== 0) ? 1 : 0;
  } finally {
    await client.connection.close();
    await store.close();
  }
}

runCommand(main, 2);
