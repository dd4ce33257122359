import assert from './assert';
import { test } from '@jest/globals';
import { HOLD_TTL_MS, type HoldResult, type SpendHold, type SpendStore } from '../../gateway/spend/spend-store';

/** 2026-12-31 23:00 UTC: the day and the month both turn an hour later. */
export const NEW_YEARS_EVE = Date.UTC(2026, 11, 31, 23, 0, 0);
const NEW_YEAR = Date.UTC(2027, 0, 1);
const DAY_MS = 24 * 60 * 60 * 1000;

function granted(result: HoldResult): SpendHold {
  if (!result.granted) throw new Error(`expected a grant, got a refusal by the ${result.window} cap`);
  return result.hold;
}

/** A store on a clock the scenario sets: `at(t)` moves it, then the store's next operation happens at `t`. */
type Clocked = { store: SpendStore; at: (time: number) => SpendStore };

/**
 * The spend store's behaviour, the same for every implementation: the unit tier runs it in-process, the
 * integration tier against Redis (redis-spend-script.ts must keep in step with spend-refusal.ts and spend-windows.ts).
 * Amounts are sums of powers of two, so float sums are exact and the boundaries are sharp.
 */
export function spendStoreScenarios(makeStore: (clock: () => number) => SpendStore, tenant: (name: string) => string): void {
  const clocked = (start: number): Clocked => {
    let now = start;
    const store = makeStore(() => now);
    return {
      store,
      at: (time) => {
        now = time;
        return store;
      },
    };
  };

  test('when a call would pass the daily cap, then it is refused until the UTC day turns, with that time', async () => {
    const { store, at } = clocked(NEW_YEARS_EVE);
    const id = tenant('daily');
    const caps = { dailyUsd: 1 };
    await store.settle(granted(await store.hold(id, caps, 0.5)), 0.75);
    const refused = await at(NEW_YEARS_EVE + 1000).hold(id, caps, 0.5);
    assert.deepEqual(refused, { granted: false, window: 'day', capUsd: 1, spentUsd: 0.75, resumesAt: NEW_YEAR });
    granted(await at(NEW_YEARS_EVE + 2000).hold(id, caps, 0.25));
    assert.ok(granted(await at(NEW_YEAR).hold(id, caps, 0.5)), 'the new day starts from nothing');
  });

  test('when the monthly cap is reached as well, then the refusal names the month, since the day turning would not help', async () => {
    const { at } = clocked(Date.UTC(2026, 10, 29, 12));
    const id = tenant('monthly');
    const caps = { dailyUsd: 1, monthlyUsd: 1.5 };
    const lastDay = Date.UTC(2026, 10, 30, 12);
    const store = at(Date.UTC(2026, 10, 29, 12));
    await store.settle(granted(await store.hold(id, caps, 1)), 1);
    await at(lastDay).settle(granted(await store.hold(id, caps, 0.5)), 0.5);
    const refused = await at(lastDay + 1).hold(id, caps, 0.25);
    assert.deepEqual(refused, { granted: false, window: 'month', capUsd: 1.5, spentUsd: 1.5, resumesAt: Date.UTC(2026, 11, 1) });
    granted(await at(Date.UTC(2026, 11, 1)).hold(id, caps, 0.25));
  });

  test('when many calls ask at once, then only as many are held as the cap covers', async () => {
    const { store } = clocked(NEW_YEARS_EVE);
    const id = tenant('concurrent');
    const caps = { dailyUsd: 1 };
    await store.settle(granted(await store.hold(id, caps, 0.25)), 0.25);
    const results = await Promise.all(Array.from({ length: 12 }, () => store.hold(id, caps, 0.25)));
    assert.equal(results.filter((result) => result.granted).length, 3);
    const refusal = results.find((result) => !result.granted);
    assert.ok(refusal && !refusal.granted && refusal.spentUsd === 1, 'the refusal counts the holds in flight');
  });

  test('when a held call settles cheaper than its estimate, then the difference is free again', async () => {
    const { store } = clocked(NEW_YEARS_EVE);
    const id = tenant('settle');
    const caps = { dailyUsd: 1 };
    await store.settle(granted(await store.hold(id, caps, 0.125)), 0.125);
    const hold = granted(await store.hold(id, caps, 0.875));
    assert.equal((await store.hold(id, caps, 0.25)).granted, false);
    const totals = await store.settle(hold, 0.125);
    assert.deepEqual(totals, { day: 0.25, month: 0.25 });
    granted(await store.hold(id, caps, 0.75));
  });

  test('when a hold is never settled (its worker died), then after its time to live it counts as spent at its amount', async () => {
    const { store, at } = clocked(NEW_YEARS_EVE - HOLD_TTL_MS);
    const id = tenant('orphan');
    const caps = { dailyUsd: 1 };
    await store.settle(granted(await store.hold(id, caps, 0.25)), 0.25);
    granted(await store.hold(id, caps, 0.5));
    assert.deepEqual(await at(NEW_YEARS_EVE - 1).totalsOn(id, '2026-12-31'), { day: 0.25, month: 0.25, held: 0.5 });
    assert.deepEqual(await at(NEW_YEARS_EVE).totalsOn(id, '2026-12-31'), { day: 0.75, month: 0.75, held: 0 }, 'the provider may have billed it');
    assert.equal((await store.hold(id, caps, 0.5)).granted, false, 'it still counts against the cap');
  });

  test('when a settle comes after its hold expired (a deferred settlement), then it replaces what the expiry counted', async () => {
    const { store, at } = clocked(NEW_YEARS_EVE - HOLD_TTL_MS);
    const id = tenant('late');
    const hold = granted(await store.hold(id, { dailyUsd: 1 }, 0.5));
    assert.equal((await at(NEW_YEARS_EVE).totalsOn(id, '2026-12-31')).day, 0.5, 'counted at its amount on expiry');
    assert.deepEqual(await at(NEW_YEARS_EVE + 1).settle(hold, 0.125), { day: 0.125, month: 0.125 });
    assert.deepEqual(await store.settle(hold, 0.125), { day: 0.125, month: 0.125, repeated: true }, 'and only once');
  });

  test('when a settle comes more than a day after its hold expired, then it adds its cost: what the expiry counted is let go after a day, as a settle is', async () => {
    const expiredAt = NEW_YEARS_EVE - 2 * DAY_MS;
    const { store, at } = clocked(expiredAt - HOLD_TTL_MS);
    const id = tenant('day-late');
    const hold = granted(await store.hold(id, {}, 0.5));
    assert.equal((await at(expiredAt).totalsOn(id, '2026-12-29')).day, 0.5, 'counted at its amount on expiry');
    // A day on, any operation of the tenant's lets the expiry's record go; the settle then counts in full.
    assert.deepEqual(await at(expiredAt + DAY_MS + 1).settle(hold, 0.125), { day: 0.125, month: 0.625 });
  });

  test('when nothing is spent or held in the window, then one call dearer than the cap still runs, and no second', async () => {
    const { store } = clocked(NEW_YEARS_EVE);
    const id = tenant('dear');
    const caps = { dailyUsd: 0.5 };
    const hold = granted(await store.hold(id, caps, 2));
    assert.equal((await store.hold(id, caps, 0.125)).granted, false);
    await store.settle(hold, 1);
    assert.equal((await store.hold(id, caps, 0.125)).granted, false);
  });

  test('when a tenant has no cap, then its calls are held and counted all the same', async () => {
    const { store } = clocked(NEW_YEARS_EVE);
    const id = tenant('uncapped');
    await store.settle(granted(await store.hold(id, {}, 0)), 100);
    const totals = await store.settle(granted(await store.hold(id, {}, 0)), 0.5);
    assert.deepEqual(totals, { day: 100.5, month: 100.5 });
    assert.equal((await store.hold(tenant('other'), { dailyUsd: 1 }, 0.5)).granted, true, 'another tenant spent nothing');
  });

  test('when a keyed hold is asked for again (a retried activity), then the tenant holds it once, at its first amount', async () => {
    const { store } = clocked(NEW_YEARS_EVE);
    const id = tenant('keyed');
    const caps = { dailyUsd: 1 };
    const keyed = { id: `entry-${id}`, ttlMs: HOLD_TTL_MS };
    await store.settle(granted(await store.hold(id, caps, 0.25)), 0.25);
    const first = granted(await store.hold(id, caps, 0.5, keyed));
    const again = granted(await store.hold(id, caps, 0.625, keyed));
    assert.deepEqual(again, first);
    granted(await store.hold(id, caps, 0.25));
    const refused = await store.hold(id, caps, 0.125);
    assert.ok(!refused.granted && refused.spentUsd === 1, 'one 0.5 hold counts, not two');
  });

  test('when a settle is repeated (its first answer was lost), then the hold is counted once, even after it expired', async () => {
    const { store, at } = clocked(NEW_YEARS_EVE - 2 * HOLD_TTL_MS);
    const id = tenant('settle-again');
    const hold = granted(await store.hold(id, { dailyUsd: 4 }, 1));
    assert.deepEqual(await store.settle(hold, 0.5), { day: 0.5, month: 0.5 });
    assert.deepEqual(await at(NEW_YEARS_EVE).settle(hold, 0.5), { day: 0.5, month: 0.5, repeated: true }, 'the repeat counts nothing');
    const late = granted(await at(NEW_YEARS_EVE).hold(id, {}, 0));
    assert.deepEqual(await at(NEW_YEARS_EVE + HOLD_TTL_MS).settle(late, 0.25), { day: 0.75, month: 0.75 }, 'an expired hold still counts once');
  });

  test('when a day is over, then its totals are still read by day for reconciliation', async () => {
    const { store, at } = clocked(NEW_YEARS_EVE);
    const id = tenant('read-back');
    await store.settle(granted(await store.hold(id, {}, 0)), 0.5);
    await at(NEW_YEAR).settle(granted(await store.hold(id, {}, 0)), 0.25);
    assert.deepEqual(await store.totalsOn(id, '2026-12-31'), { day: 0.5, month: 0.5, held: 0 });
    assert.deepEqual(await store.totalsOn(id, '2027-01-01'), { day: 0.25, month: 0.25, held: 0 });
    assert.deepEqual(await store.totalsOn(id, '2026-12-30'), { day: 0, month: 0.5, held: 0 });
  });

  test('when a keyed hold has a long time to live (a batch entry), then it holds for all of it, and counts as spent once it expires unsettled', async () => {
    // The future, as the other scenarios: Redis expires the keys on the wall clock.
    const start = NEW_YEAR;
    const { store, at } = clocked(start);
    const id = tenant('long');
    const caps = { monthlyUsd: 1 };
    const ttlMs = 26 * 60 * 60_000;
    const hold = granted(await store.hold(id, caps, 0.75, { id: `entry-${id}`, ttlMs }));
    // A live call's hold taken later must not cut the entry's short (Redis: the keys' own expiry).
    await at(start + 1).settle(granted(await store.hold(id, caps, 0.125)), 0.125);
    assert.equal((await at(start + ttlMs - 1).hold(id, caps, 0.25)).granted, false, 'still held a day later');
    assert.deepEqual(await at(start + ttlMs).totalsOn(id, '2027-01-02'), { day: 0.75, month: 0.875, held: 0 }, 'expired: counted at its amount');
    // Billed all the same: an entry whose results are read after its hold expired replaces what its expiry counted.
    // A day later (the next day, the same month), with the store's clock where the last hold left it.
    assert.deepEqual(await store.settle(hold, 0.75), { day: 0.75, month: 0.875 });
    assert.deepEqual(await store.settle(hold, 0.75), { day: 0.75, month: 0.875, repeated: true }, 'a repeated settle counts nothing more');
  });
}
