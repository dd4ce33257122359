import { setTimeout as delay } from 'node:timers/promises';
import type {
  ActivitySlotInfo,
  CustomSlotSupplier,
  SlotMarkUsedContext,
  SlotPermit,
  SlotReleaseContext,
  SlotReserveContext,
} from '@temporalio/worker';
import type { Priority } from '../common/task-queues';
import type { CallCost, Wait } from './budget/bucket-math';
import type { GatewayEvent } from './gateway-events';

/** Longest nap between looks at the budget: a refill is noticed within this. */
const MAX_NAP_MS = 500;
const MIN_NAP_MS = 20;

export interface PacedActivitySlotsOptions {
  priority: Priority;
  /** The slot count: an override, or the capacity plan from the observed call profile. */
  maxSlots: () => number;
  /** How long until the budget could cover `cost` for this class (no tokens taken). */
  budgetWait: (cost: CallCost) => Promise<Wait>;
  /** What one typical model call reserves. */
  typicalCost: () => CallCost;
  /** Activity types that call the model; the others never touch the budget. */
  modelActivityTypes: ReadonlySet<string>;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
}

/** How long activities hold a slot, model calls and the rest apart: the "time in the system" of Little's law. */
export interface SlotHoldTimes {
  modelMs?: number;
  otherMs?: number;
}

/** Weight of each finished activity in the moving averages of hold times. */
const HOLD_SMOOTHING = 0.1;

interface Permit extends SlotPermit {
  id: number;
}

/**
 * Activity slots that are handed out only while the token budget could pay for another model call, so a worker
 * does not poll tasks it would only have to refuse: while the budget is short the work waits in Temporal's task
 * queue (where backlog metrics and KEDA see it), not in retry timers, and no attempt is burnt on a refusal.
 * The gateway's reservation stays the real check; this only keeps refusals rare.
 *
 * A permit counts as a pending model call from the moment it is handed out until its task reserves budget (the
 * gateway's `reserved`/`denied` event for this class), turns out not to call the model, or is released, so that
 * one look at the budget does not let every poller through at once. (Pending claims beyond all a class may ever
 * hold go through once its part is full, as a single oversized call would; the slot count bounds that.)
 */
export class PacedActivitySlots implements CustomSlotSupplier<ActivitySlotInfo> {
  readonly type = 'custom';
  private used = 0;
  private nextId = 1;
  private readonly pending = new Set<number>();
  private readonly released = new Set<() => void>();
  private readonly running = new Map<number, { since: number; model: boolean }>();
  private hold: SlotHoldTimes = {};

  constructor(private readonly options: PacedActivitySlotsOptions) {}

  /** Subscribe this to the gateway's events. */
  readonly listener = (event: GatewayEvent): void => {
    if ((event.type === 'reserved' || event.type === 'denied') && event.priority === this.options.priority) {
      const oldest = this.pending.values().next();
      if (!oldest.done) this.pending.delete(oldest.value);
    }
  };

  async reserveSlot(_context: SlotReserveContext, abortSignal: AbortSignal): Promise<SlotPermit> {
    const sleep = this.options.sleep ?? ((ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }));
    for (;;) {
      if (abortSignal.aborted) throw abortError();
      if (this.used >= this.options.maxSlots()) {
        await this.nextRelease(abortSignal);
        continue;
      }
      const typical = this.options.typicalCost();
      const calls = this.pending.size + 1;
      // A budget that cannot be read (Redis away) lets the poll through. The slot cannot tell which task it will
      // get, and text extraction, ledger posts, webhooks and the batch lane's collector need no budget: holding polls
      // back would stop them all for the length of the outage. A model call polled now fails at once with
      // BudgetUnavailableError and comes back after its retry delay, without a dead letter (workflows/job-run.ts).
      const wait = await this.options
        .budgetWait({
          input: typical.input * calls,
          output: typical.output * calls,
          requests: typical.requests * calls,
        })
        .catch((): Wait => ({ waitMs: 0 }));
      // The SDK may have given up while the budget answered; a permit returned now would never be released.
      if (abortSignal.aborted) throw abortError();
      if (wait.waitMs <= 0 && this.used < this.options.maxSlots()) {
        const permit: Permit = { id: this.nextId++ };
        this.used += 1;
        this.pending.add(permit.id);
        return permit;
      }
      await sleep(Math.min(MAX_NAP_MS, Math.max(MIN_NAP_MS, wait.waitMs)), abortSignal);
    }
  }

  /** Eager activities would skip the pacing; declining them sends the task through the queue instead. */
  tryReserveSlot(_context: SlotReserveContext): SlotPermit | null {
    return null;
  }

  markSlotUsed(context: SlotMarkUsedContext<ActivitySlotInfo>): void {
    const { id } = context.permit as Permit;
    const model = this.options.modelActivityTypes.has(context.slotInfo.activityType);
    if (!model) this.pending.delete(id);
    this.running.set(id, { since: this.now(), model });
  }

  releaseSlot(context: SlotReleaseContext<ActivitySlotInfo>): void {
    const { id } = context.permit as Permit;
    const run = this.running.get(id);
    if (run) {
      this.running.delete(id);
      const key = run.model ? 'modelMs' : 'otherMs';
      const held = this.now() - run.since;
      const previous = this.hold[key];
      this.hold = {
        ...this.hold,
        [key]: previous === undefined ? held : previous + HOLD_SMOOTHING * (held - previous),
      };
    }
    this.used = Math.max(0, this.used - 1);
    this.pending.delete(id);
    for (const wake of this.released) wake();
    this.released.clear();
  }

  /** Moving averages of how long finished activities held their slot; absent until one has finished. */
  holdTimes(): SlotHoldTimes {
    return { ...this.hold };
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Slots handed out and not yet released, and how many of them may still reserve budget. */
  stats(): { used: number; pendingModelCalls: number } {
    return { used: this.used, pendingModelCalls: this.pending.size };
  }

  private nextRelease(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.released.delete(wake);
        reject(abortError());
      };
      const wake = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      this.released.add(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function abortError(): Error {
  const error = new Error('slot reservation aborted');
  error.name = 'AbortError';
  return error;
}
