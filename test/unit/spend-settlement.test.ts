import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { ContentRefusedError } from '../../common/errors';
import { InProcessSpendStore } from '../../gateway/spend/local-spend-store';
import { inMemoryPendingSettlements, type PendingSettlementLog } from '../../gateway/spend/pending-settlements';
import type { SpendStore } from '../../gateway/spend/spend-store';
import { createTenantSpend, type SpendEvent } from '../../gateway/spend/tenant-spend';

const NOW = Date.UTC(2026, 11, 4, 12);
const DAY = '2026-12-04';

/**
 * The real in-process store whose next `failures` settles fail: before counting (Redis unreachable), or after
 * counting (the answer lost on the way back, the case that would count twice if a retry were not idempotent).
 */
function failingSettles(store: SpendStore, failures: number, when: 'before' | 'after'): SpendStore & { failed: number } {
  const wrapped = Object.create(store) as SpendStore & { failed: number };
  wrapped.failed = 0;
  wrapped.settle = async (hold, usd) => {
    if (wrapped.failed >= failures) return store.settle(hold, usd);
    wrapped.failed += 1;
    if (when === 'after') await store.settle(hold, usd);
    throw new Error('ECONNRESET: the spend store went away');
  };
  return wrapped;
}

function setUp(failures: number, when: 'before' | 'after', pending: PendingSettlementLog = inMemoryPendingSettlements()) {
  const real = new InProcessSpendStore(() => NOW);
  const store = failingSettles(real, failures, when);
  const events: SpendEvent[] = [];
  const spend = createTenantSpend({ store, caps: { demo: { dailyUsd: 10 } }, pending, onEvent: (event) => events.push(event) });
  return { real, store, spend, pending, events };
}

describe('a paid call whose settle fails', () => {
  test.each(['before', 'after'] as const)(
    'when the store fails the settle (%s counting), then the call answers, and the cost is counted once by the later pass',
    async (when) => {
      const { real, store, spend, events } = setUp(3, when);
      const answer = await spend.spend('demo', { mostItCosts: () => 1, run: async () => 'the paid answer', costOf: () => 0.25 });
      assert.equal(answer, 'the paid answer');
      assert.equal(store.failed, 1);
      assert.deepEqual(await spend.settler.settlePending(), { settled: 0, left: 1 }, 'the store still fails');
      assert.deepEqual(await spend.settler.settlePending(), { settled: 0, left: 1 });
      assert.deepEqual(await spend.settler.settlePending(), { settled: 1, left: 0 });
      assert.deepEqual(await spend.settler.settlePending(), { settled: 0, left: 0 }, 'nothing is left to settle');
      assert.deepEqual(await real.totalsOn('demo', DAY), { day: 0.25, month: 0.25, held: 0 });
      assert.deepEqual(
        events.map((event) => event.type),
        ['deferred', 'spent'],
        'the deferral is told once, and the late settle once',
      );
    },
  );

  test('when a refused call was billed and its settle fails, then the refusal is what the caller sees, and the bill is counted once later', async () => {
    const { real, spend } = setUp(1, 'after');
    const refused = new ContentRefusedError('declined', { details: { billedUsage: { inputTokens: 10, outputTokens: 1, costUsd: 0.5, calls: 1 } } });
    const error = await spend.spend('demo', { mostItCosts: () => 1, run: () => Promise.reject(refused), costOf: () => 0 }).catch((caught: unknown) => caught);
    assert.equal(error, refused);
    await spend.settler.settlePending();
    assert.deepEqual(await real.totalsOn('demo', DAY), { day: 0.5, month: 0.5, held: 0 });
  });

  test('when the pending log fails too, then the settlement is kept in memory and still counted once later', async () => {
    const log = inMemoryPendingSettlements();
    const failingLog: PendingSettlementLog = { ...log, record: () => Promise.reject(new Error('S3 unreachable')) };
    const { real, spend } = setUp(1, 'before', failingLog);
    assert.equal(await spend.spend('demo', { mostItCosts: () => 1, run: async () => 7, costOf: () => 0.125 }), 7);
    assert.equal(log.records.size, 0);
    assert.deepEqual(await spend.settler.settlePending(), { settled: 1, left: 0 });
    await spend.settler.settlePending();
    assert.deepEqual(await real.totalsOn('demo', DAY), { day: 0.125, month: 0.125, held: 0 });
  });

  test('when two workers settle the same pending record, then it is counted once', async () => {
    const pending = inMemoryPendingSettlements();
    const { real, spend } = setUp(1, 'before', pending);
    await spend.spend('demo', { mostItCosts: () => 1, run: async () => 1, costOf: () => 0.25 });
    const record = [...pending.records.values()][0];
    assert.ok(record);
    const other = createTenantSpend({ store: real, caps: {}, pending: inMemoryPendingSettlements() });
    await Promise.all([spend.settler.settlePending(), other.settler.settle(record.hold, record.usd)]);
    assert.deepEqual(await real.totalsOn('demo', DAY), { day: 0.25, month: 0.25, held: 0 });
  });
});
