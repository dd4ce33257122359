import assert from './assert';
import { test } from '@jest/globals';
import { HOLD_TTL_MS, type HoldResult, type SpendHold, type SpendStore } from '../../gateway/spend/spend-store';

/** 2026-12-31 23:00 UTC: the day and the month both turn an hour later. */
export const NEW_YEARS_EVE = Date.UTC(2026, 11, 31, 23, 0, 0);
const NEW_YEAR = Date.UTC(2027, 0, 1);

function granted(result: HoldResult): SpendHold {
  if (!result.granted) throw new Error(`expected a grant, got a refusal by the ${result.window} cap`);
  return result.hold;
}

/**
 * The spend store's behaviour, the same for every implementation: the unit tier runs it in-process, the
 * integration tier against Redis (redis-spend-script.ts must keep in step with spend-refusal.ts).
 * Amounts are sums of powers of two, so float sums are exact and the boundaries are sharp.
 */
export function spendStoreScenarios(makeStore: (tenantId: string) => SpendStore, tenant: (name: string) => string): void {
  test('when a call would pass the daily cap, then it is refused until the UTC day turns, with that time', async () => {
    const store = makeStore('daily');
    const id = tenant('daily');
    const caps = { dailyUsd: 1 };
    await store.settle(granted(await store.hold(id, caps, 0.5, NEW_YEARS_EVE)), 0.75, NEW_YEARS_EVE);
    const refused = await store.hold(id, caps, 0.5, NEW_YEARS_EVE + 1000);
    assert.deepEqual(refused, { granted: false, window: 'day', capUsd: 1, spentUsd: 0.75, resumesAt: NEW_YEAR });
    granted(await store.hold(id, caps, 0.25, NEW_YEARS_EVE + 2000));
    assert.ok(granted(await store.hold(id, caps, 0.5, NEW_YEAR)), 'the new day starts from nothing');
  });

  test('when the monthly cap is reached as well, then the refusal names the month, since the day turning would not help', async () => {
    const store = makeStore('monthly');
    const id = tenant('monthly');
    const caps = { dailyUsd: 1, monthlyUsd: 1.5 };
    const lastDay = Date.UTC(2026, 10, 30, 12);
    await store.settle(granted(await store.hold(id, caps, 1, Date.UTC(2026, 10, 29, 12))), 1, Date.UTC(2026, 10, 29, 12));
    await store.settle(granted(await store.hold(id, caps, 0.5, lastDay)), 0.5, lastDay);
    const refused = await store.hold(id, caps, 0.25, lastDay + 1);
    assert.deepEqual(refused, { granted: false, window: 'month', capUsd: 1.5, spentUsd: 1.5, resumesAt: Date.UTC(2026, 11, 1) });
    granted(await store.hold(id, caps, 0.25, Date.UTC(2026, 11, 1)));
  });

  test('when many calls ask at once, then only as many are held as the cap covers', async () => {
    const store = makeStore('concurrent');
    const id = tenant('concurrent');
    const caps = { dailyUsd: 1 };
    await store.settle(granted(await store.hold(id, caps, 0.25, NEW_YEARS_EVE)), 0.25, NEW_YEARS_EVE);
    const results = await Promise.all(Array.from({ length: 12 }, () => store.hold(id, caps, 0.25, NEW_YEARS_EVE)));
    assert.equal(results.filter((result) => result.granted).length, 3);
    const refusal = results.find((result) => !result.granted);
    assert.ok(refusal && !refusal.granted && refusal.spentUsd === 1, 'the refusal counts the holds in flight');
  });

  test('when a held call settles cheaper than its estimate, then the difference is free again', async () => {
    const store = makeStore('settle');
    const id = tenant('settle');
    const caps = { dailyUsd: 1 };
    await store.settle(granted(await store.hold(id, caps, 0.125, NEW_YEARS_EVE)), 0.125, NEW_YEARS_EVE);
    const hold = granted(await store.hold(id, caps, 0.875, NEW_YEARS_EVE));
    assert.equal((await store.hold(id, caps, 0.25, NEW_YEARS_EVE)).granted, false);
    const totals = await store.settle(hold, 0.125, NEW_YEARS_EVE);
    assert.deepEqual(totals, { day: 0.25, month: 0.25 });
    granted(await store.hold(id, caps, 0.75, NEW_YEARS_EVE));
  });

  test('when a hold is never settled (its worker died), then it stops counting after its time to live', async () => {
    const store = makeStore('orphan');
    const id = tenant('orphan');
    const caps = { dailyUsd: 1 };
    await store.settle(granted(await store.hold(id, caps, 0.25, NEW_YEARS_EVE - HOLD_TTL_MS)), 0.25, NEW_YEARS_EVE - HOLD_TTL_MS);
    granted(await store.hold(id, caps, 0.75, NEW_YEARS_EVE - HOLD_TTL_MS));
    assert.equal((await store.hold(id, caps, 0.5, NEW_YEARS_EVE - 1)).granted, false);
    granted(await store.hold(id, caps, 0.5, NEW_YEARS_EVE));
  });

  test('when nothing is spent or held in the window, then one call dearer than the cap still runs, and no second', async () => {
    const store = makeStore('dear');
    const id = tenant('dear');
    const caps = { dailyUsd: 0.5 };
    const hold = granted(await store.hold(id, caps, 2, NEW_YEARS_EVE));
    assert.equal((await store.hold(id, caps, 0.125, NEW_YEARS_EVE)).granted, false);
    await store.settle(hold, 1, NEW_YEARS_EVE);
    assert.equal((await store.hold(id, caps, 0.125, NEW_YEARS_EVE)).granted, false);
  });

  test('when a tenant has no cap, then its calls are held and counted all the same', async () => {
    const store = makeStore('uncapped');
    const id = tenant('uncapped');
    await store.settle(granted(await store.hold(id, {}, 0, NEW_YEARS_EVE)), 100, NEW_YEARS_EVE);
    const totals = await store.settle(granted(await store.hold(id, {}, 0, NEW_YEARS_EVE)), 0.5, NEW_YEARS_EVE);
    assert.deepEqual(totals, { day: 100.5, month: 100.5 });
    assert.equal((await store.hold(tenant('other'), { dailyUsd: 1 }, 0.5, NEW_YEARS_EVE)).granted, true, 'another tenant spent nothing');
  });

  test('when a keyed hold is asked for again (a retried activity), then the tenant holds it once, at its first amount', async () => {
    const store = makeStore('keyed');
    const id = tenant('keyed');
    const caps = { dailyUsd: 1 };
    const keyed = { id: `entry-${id}`, ttlMs: HOLD_TTL_MS };
    await store.settle(granted(await store.hold(id, caps, 0.25, NEW_YEARS_EVE)), 0.25, NEW_YEARS_EVE);
    const first = granted(await store.hold(id, caps, 0.5, NEW_YEARS_EVE, keyed));
    const again = granted(await store.hold(id, caps, 0.625, NEW_YEARS_EVE, keyed));
    assert.deepEqual(again, first);
    granted(await store.hold(id, caps, 0.25, NEW_YEARS_EVE));
    const refused = await store.hold(id, caps, 0.125, NEW_YEARS_EVE);
    assert.ok(!refused.granted && refused.spentUsd === 1, 'one 0.5 hold counts, not two');
  });

  test('when a hold is settled with settleHeld twice, then it is counted once', async () => {
    const store = makeStore('settle-once');
    const id = tenant('settle-once');
    const hold = granted(await store.hold(id, { dailyUsd: 4 }, 1, NEW_YEARS_EVE, { id: `entry-${id}`, ttlMs: HOLD_TTL_MS }));
    assert.deepEqual(await store.settleHeld(hold, 0.5, NEW_YEARS_EVE), { day: 0.5, month: 0.5 });
    assert.equal(await store.settleHeld(hold, 0.5, NEW_YEARS_EVE), undefined);
    const totals = await store.settle(granted(await store.hold(id, { dailyUsd: 4 }, 0, NEW_YEARS_EVE)), 0, NEW_YEARS_EVE);
    assert.deepEqual(totals, { day: 0.5, month: 0.5 });
  });

  test('when a keyed hold has a long time to live (a batch entry), then it counts for all of it and not after', async () => {
    const store = makeStore('long');
    const id = tenant('long');
    const caps = { monthlyUsd: 1 };
    // The future, as the other scenarios: Redis expires the set on the wall clock.
    const start = NEW_YEAR;
    const ttlMs = 26 * 60 * 60_000;
    const hold = granted(await store.hold(id, caps, 0.75, start, { id: `entry-${id}`, ttlMs }));
    // A live call's hold taken later must not cut the entry's short (Redis: the set's own expiry).
    await store.settle(granted(await store.hold(id, caps, 0.125, start + 1)), 0.125, start + 1);
    assert.equal((await store.hold(id, caps, 0.25, start + ttlMs - 1)).granted, false, 'still held a day later');
    granted(await store.hold(id, caps, 0.25, start + ttlMs));
    assert.equal(await store.settleHeld(hold, 0.75, start + ttlMs), undefined, 'an expired hold counts nothing when settled');
  });
}
