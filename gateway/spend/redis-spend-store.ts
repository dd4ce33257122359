import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { budgetUnavailableOr } from '../../lib/redis-unavailable';
import { SPEND_SCRIPT } from './redis-spend-script';
import { HOLD_TTL_MS, type HoldResult, type KeyedHold, type SpendHold, type SpendStore, type SpentTotals } from './spend-store';
import type { SpendWindow } from './spend-windows';
import { type SpendCaps, windowsAt } from './spend-windows';

const SCRIPT_SHA = createHash('sha1').update(SPEND_SCRIPT).digest('hex');
/** A window's total outlives the window by a day, so a late settle near the turn still finds it. */
const KEEP_AFTER_WINDOW_S = 24 * 60 * 60;

/**
 * The fleet's spend in Redis, one script (redis-spend-script.ts) over three keys per tenant. The time is the
 * caller's: windows are UTC calendar days and months, and worker clocks within seconds of each other only move
 * a window's turn by those seconds.
 */
export class RedisSpendStore implements SpendStore {
  readonly kind = 'redis';

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix = 'slowlane:spend',
  ) {}

  private keys(tenantId: string, now: number): [string, string, string] {
    const [day, month] = windowsAt(now, {});
    // The braces keep a tenant's keys on one Redis Cluster slot, as the script needs.
    const base = `${this.keyPrefix}:{${tenantId}}`;
    return [`${base}:day:${day.key}`, `${base}:month:${month.key}`, `${base}:holds`];
  }

  private async run(keys: string[], argv: Array<string | number>): Promise<string[]> {
    const args = argv.map(String);
    try {
      return (await this.redis.evalsha(SCRIPT_SHA, keys.length, ...keys, ...args)) as string[];
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes('NOSCRIPT')) throw budgetUnavailableOr(error, 'spend store');
      return (await this.redis.eval(SPEND_SCRIPT, keys.length, ...keys, ...args).catch((retried: unknown) => {
        throw budgetUnavailableOr(retried, 'spend store');
      })) as string[];
    }
  }

  async hold(tenantId: string, caps: SpendCaps, usd: number, now: number, keyed?: KeyedHold): Promise<HoldResult> {
    const [day, month] = windowsAt(now, caps);
    const id = keyed?.id ?? randomUUID();
    const reply = await this.run(this.keys(tenantId, now), [
      'hold',
      now,
      usd,
      day.capUsd ?? '',
      month.capUsd ?? '',
      memberOf({ tenantId, id, usd }),
      now + (keyed?.ttlMs ?? HOLD_TTL_MS),
      day.endsAt,
      month.endsAt,
      keyed?.id ?? '',
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

  async settle(hold: SpendHold, usd: number, now: number): Promise<SpentTotals> {
    return (await this.settleOp('settle', hold, usd, now)) as SpentTotals;
  }

  async settleHeld(hold: SpendHold, usd: number, now: number): Promise<SpentTotals | undefined> {
    return this.settleOp('settleHeld', hold, usd, now);
  }

  private async settleOp(op: 'settle' | 'settleHeld', hold: SpendHold, usd: number, now: number): Promise<SpentTotals | undefined> {
    const [day, month] = windowsAt(now, {});
    const ttl = (endsAt: number) => Math.ceil((endsAt - now) / 1000) + KEEP_AFTER_WINDOW_S;
    const reply = await this.run(this.keys(hold.tenantId, now), [op, now, usd, memberOf(hold), ttl(day.endsAt), ttl(month.endsAt)]);
    if (reply[0] === 'gone') return undefined;
    return { day: Number(reply[1]), month: Number(reply[2]) };
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

/** A hold in the sorted set: its id and amount, written here once and sent again as-is to remove it. */
function memberOf(hold: SpendHold): string {
  return `${hold.id}|${hold.usd}`;
}
