import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { budgetUnavailableOr } from '../../lib/redis-unavailable';
import { SPEND_SCRIPT } from './redis-spend-script';
import { type DayTotals, HOLD_TTL_MS, type HoldResult, type KeyedHold, type SettledTotals, type SpendHold, type SpendStore, type SpentTotals } from './spend-store';
import type { SpendWindow } from './spend-windows';
import type { SpendCaps } from './spend-windows';

const SCRIPT_SHA = createHash('sha1').update(SPEND_SCRIPT).digest('hex');

type Op = 'hold' | 'settle' | 'totals';

export interface RedisSpendStoreOptions {
  keyPrefix?: string;
  /**
   * Tests only: the time the script uses instead of Redis's TIME. Production leaves it unset, so every worker's
   * holds and windows follow one clock whatever the workers' own clocks say.
   */
  clock?: () => number;
  /** Told the script's work per call (commands called plus elements they returned): tests and benchmarks watch it. */
  onScriptWork?: (op: Op, work: number) => void;
}

/** The fleet's spend in Redis: one script (redis-spend-script.ts) over seven keys per tenant. */
export class RedisSpendStore implements SpendStore {
  readonly kind = 'redis';
  private readonly keyPrefix: string;

  constructor(
    private readonly redis: Redis,
    private readonly options: RedisSpendStoreOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'slowlane:spend';
  }

  /** The tenant's keys; the braces keep them on one Redis Cluster slot, as the script needs. */
  keysOf(tenantId: string): string[] {
    const base = `${this.keyPrefix}:{${tenantId}}`;
    return ['holds', 'hold-usd', 'held', 'totals', 'settled', 'expired', 'expired-at'].map((name) => `${base}:${name}`);
  }

  private async run(op: Op, tenantId: string, argv: Array<string | number>): Promise<string[]> {
    const keys = this.keysOf(tenantId);
    const args = [op, this.options.clock?.() ?? '', ...argv].map(String);
    let reply: Array<string | number>;
    try {
      reply = (await this.redis.evalsha(SCRIPT_SHA, keys.length, ...keys, ...args)) as Array<string | number>;
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes('NOSCRIPT')) throw budgetUnavailableOr(error, 'spend store');
      reply = (await this.redis.eval(SPEND_SCRIPT, keys.length, ...keys, ...args).catch((retried: unknown) => {
        throw budgetUnavailableOr(retried, 'spend store');
      })) as Array<string | number>;
    }
    this.options.onScriptWork?.(op, Number(reply.at(-1)));
    return reply.slice(0, -1).map(String);
  }

  async hold(tenantId: string, caps: SpendCaps, usd: number, keyed?: KeyedHold): Promise<HoldResult> {
    const id = keyed?.id ?? randomUUID();
    const reply = await this.run('hold', tenantId, [
      usd,
      caps.dailyUsd ?? '',
      caps.monthlyUsd ?? '',
      id,
      keyed?.ttlMs ?? HOLD_TTL_MS,
      keyed ? '1' : '',
    ]);
    if (reply[0] === 'granted') return { granted: true, hold: { tenantId, id, usd } };
    if (reply[0] === 'held') return { granted: true, hold: { tenantId, id, usd: Number(reply[1]) } };
    return {
      granted: false,
      window: reply[1] as SpendWindow,
      capUsd: Number(reply[2]),
      spentUsd: Number(reply[3]),
      resumesAt: Number(reply[4]),
    };
  }

  async settle(hold: SpendHold, usd: number): Promise<SettledTotals> {
    const reply = await this.run('settle', hold.tenantId, [hold.id, usd]);
    return { ...totalsOf(reply), ...(reply[0] === 'settled' ? { repeated: true as const } : {}) };
  }

  async totalsOn(tenantId: string, day: string): Promise<DayTotals> {
    const reply = await this.run('totals', tenantId, [`day:${day}`, `month:${day.slice(0, 7)}`]);
    return { ...totalsOf(reply), held: Number(reply[3]) };
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

function totalsOf(reply: string[]): SpentTotals {
  return { day: Number(reply[1]), month: Number(reply[2]) };
}
