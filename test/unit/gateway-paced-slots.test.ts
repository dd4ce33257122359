import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import type { ActivitySlotInfo, SlotPermit, SlotReserveContext } from '@temporalio/worker';
import { BudgetUnavailableError } from '../../common/errors';
import type { CallCost, Wait } from '../../gateway/budget/bucket-math';
import { InProcessBudget } from '../../gateway/budget/local-budget';
import { DEFAULT_POOL } from '../../gateway/budget/token-budget';
import { PacedActivitySlots } from '../../gateway/paced-activity-slots';

const CONTEXT = {
  slotType: 'activity',
  taskQueue: 'q',
  workerIdentity: 'w',
  workerBuildId: '',
  isSticky: false,
} as SlotReserveContext;
const TYPICAL: CallCost = { input: 10_000, output: 0, requests: 1 };

function setup(maxSlots = 10) {
  let now = 0;
  const naps: number[] = [];
  const budget = new InProcessBudget(
    {
      pools: {
        [DEFAULT_POOL]: { inputTokensPerMinute: 60_000, outputTokensPerMinute: 60_000, requestsPerMinute: 600 },
      },
      interactiveShare: 0.25,
    },
    () => now,
  );
  const slots = new PacedActivitySlots({
    priority: 'bulk',
    maxSlots: () => maxSlots,
    budgetWait: (cost) => budget.wait(DEFAULT_POOL, 'bulk', cost),
    typicalCost: () => TYPICAL,
    modelActivityTypes: new Set(['extractInvoiceFields']),
    // Napping is where time passes: the test's clock moves instead of the process sleeping.
    sleep: async (ms) => {
      naps.push(ms);
      now += ms;
    },
    now: () => now,
  });
  const used = (permit: SlotPermit, activityType: string) =>
    slots.markSlotUsed({ permit, slotInfo: { type: 'activity', activityType } as ActivitySlotInfo });
  return {
    budget,
    slots,
    naps,
    used,
    reserveCall: () => budget.reserve(DEFAULT_POOL, 'bulk', TYPICAL),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('activity slots paced by the token budget', () => {
  test('when the budget could pay for more calls, then slots are handed out without waiting, one per affordable call', async () => {
    const { slots, naps } = setup();
    // 45,000 shared tokens cover four typical calls of 10,000, counting the permits not yet turned into calls.
    for (let index = 0; index < 4; index++) await slots.reserveSlot(CONTEXT, new AbortController().signal);
    assert.deepEqual(naps, []);
    assert.deepEqual(slots.stats(), { used: 4, pendingModelCalls: 4 });
  });

  test('when the handed-out slots already claim the budget, then the next one waits for the refill instead of polling', async () => {
    const { slots, naps, reserveCall } = setup();
    assert.ok((await reserveCall()).granted, 'a call already in flight holds 10,000 of the 45,000 shared tokens');
    for (let index = 0; index < 3; index++) await slots.reserveSlot(CONTEXT, new AbortController().signal);
    assert.deepEqual(naps, []);
    await slots.reserveSlot(CONTEXT, new AbortController().signal);
    // A fourth pending call needs 40,000 of the 35,000 left: 5,000 more, at one token per millisecond.
    assert.ok(naps.length > 0, 'it napped');
    assert.equal(
      naps.reduce((sum, nap) => sum + nap, 0),
      5_000,
    );
  });

  test('when a slot’s task reserves its tokens, then it no longer counts as a pending call', async () => {
    const { slots, naps, reserveCall } = setup();
    await slots.reserveSlot(CONTEXT, new AbortController().signal);
    assert.ok((await reserveCall()).granted);
    slots.listener({ type: 'reserved', jobId: 'j', model: 'm', pool: DEFAULT_POOL, priority: 'bulk', cost: TYPICAL });
    assert.equal(slots.stats().pendingModelCalls, 0);
    for (let index = 0; index < 3; index++) await slots.reserveSlot(CONTEXT, new AbortController().signal);
    assert.deepEqual(naps, [], '35,000 left cover the three typical calls asked for');
  });

  test('when a slot runs an activity that never calls the model, then it stops counting against the budget at once', async () => {
    const { slots, used } = setup();
    const permit = await slots.reserveSlot(CONTEXT, new AbortController().signal);
    used(permit, 'extractText');
    assert.deepEqual(slots.stats(), { used: 1, pendingModelCalls: 0 });
    const modelPermit = await slots.reserveSlot(CONTEXT, new AbortController().signal);
    used(modelPermit, 'extractInvoiceFields');
    assert.deepEqual(slots.stats(), { used: 2, pendingModelCalls: 1 });
  });

  test('when every slot is taken, then the next reservation waits for a release', async () => {
    const { slots } = setup(1);
    const permit = await slots.reserveSlot(CONTEXT, new AbortController().signal);
    let second: SlotPermit | undefined;
    const waiting = slots.reserveSlot(CONTEXT, new AbortController().signal).then((granted) => (second = granted));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(second, undefined);
    slots.releaseSlot({ permit });
    await waiting;
    assert.ok(second);
  });

  test('when the SDK gives up a reservation, then it ends with an AbortError', async () => {
    const { slots } = setup(1);
    await slots.reserveSlot(CONTEXT, new AbortController().signal);
    const abort = new AbortController();
    const waiting = slots.reserveSlot(CONTEXT, abort.signal);
    abort.abort();
    await assert.rejects(waiting, { name: 'AbortError' });
  });

  test('when the SDK gives up while the budget is being read, then no slot is handed out or counted', async () => {
    let answer: (wait: Wait) => void = () => undefined;
    const slots = new PacedActivitySlots({
      priority: 'bulk',
      maxSlots: () => 10,
      budgetWait: () => new Promise<Wait>((resolve) => (answer = resolve)),
      typicalCost: () => TYPICAL,
      modelActivityTypes: new Set(['extractInvoiceFields']),
    });
    const abort = new AbortController();
    const waiting = slots.reserveSlot(CONTEXT, abort.signal);
    await new Promise((resolve) => setImmediate(resolve));
    abort.abort();
    answer({ waitMs: 0 });
    // The SDK drops a reservation it gave up on: a permit handed out now would hold a slot forever.
    await assert.rejects(waiting, { name: 'AbortError' });
    assert.deepEqual(slots.stats(), { used: 0, pendingModelCalls: 0 });
  });

  test('when the budget cannot be read (Redis away), then slots are still handed out up to the slot count, and pacing returns with the budget', async () => {
    let reachable = false;
    let budgetWaits = 0;
    const naps: number[] = [];
    const slots = new PacedActivitySlots({
      priority: 'bulk',
      maxSlots: () => 3,
      budgetWait: async () => {
        budgetWaits += 1;
        if (!reachable) throw new BudgetUnavailableError('the token budget cannot be reached');
        // Back, and spent: the next call is 2 s away.
        return { waitMs: 2_000, limitedBy: 'input' };
      },
      typicalCost: () => TYPICAL,
      modelActivityTypes: new Set(['extractInvoiceFields']),
      sleep: async (ms) => {
        naps.push(ms);
        throw Object.assign(new Error('stop'), { name: 'AbortError' });
      },
    });
    // Ledger posts and webhooks share these slots: none of them may wait for a budget nobody can read.
    const permits = [];
    for (let index = 0; index < 3; index++) permits.push(await slots.reserveSlot(CONTEXT, new AbortController().signal));
    assert.equal(permits.length, 3);
    assert.deepEqual(naps, []);
    assert.equal(budgetWaits, 3, 'each poll asked the budget first');
    assert.deepEqual(slots.stats(), { used: 3, pendingModelCalls: 3 });
    const [first] = permits;
    assert.ok(first);
    slots.markSlotUsed({ permit: first, slotInfo: { type: 'activity', activityType: 'postInvoiceToLedger' } as ActivitySlotInfo });
    slots.releaseSlot({ permit: first });
    reachable = true;
    // With the budget readable again and short, the next poll waits for the refill as before.
    await assert.rejects(slots.reserveSlot(CONTEXT, new AbortController().signal), { name: 'AbortError' });
    assert.deepEqual(naps, [500]);
  });

  test('when eager execution offers a task, then it is declined so the task goes through the paced queue', () => {
    const { slots } = setup();
    assert.equal(slots.tryReserveSlot(CONTEXT), null);
  });

  test('when activities finish, then how long they held their slot is learned, model calls and the rest apart', async () => {
    const { slots, used, advance } = setup();
    assert.deepEqual(slots.holdTimes(), {});
    const model = await slots.reserveSlot(CONTEXT, new AbortController().signal);
    used(model, 'extractInvoiceFields');
    const other = await slots.reserveSlot(CONTEXT, new AbortController().signal);
    used(other, 'extractText');
    advance(300);
    slots.releaseSlot({ permit: other });
    advance(1_500);
    slots.releaseSlot({ permit: model });
    assert.deepEqual(slots.holdTimes(), { modelMs: 1_800, otherMs: 300 });
  });
});
