import type { Priority } from '../../common/task-queues';
import {
  admission,
  type CallCost,
  newPoolState,
  observe,
  pause,
  type PoolSettings,
  type PoolState,
  refill,
  reserve,
  settle,
  type Wait,
} from './bucket-math';
import {
  type BudgetSettings,
  poolSettingsOf,
  type ProviderObservation,
  type Reservation,
  type ReserveResult,
  type TokenBudget,
} from './token-budget';

/** The budget of a single process: right for one worker, or for tests; a fleet needs the Redis budget. */
export class InProcessBudget implements TokenBudget {
  readonly kind = 'in-process';
  private readonly pools = new Map<string, PoolState>();

  constructor(
    private readonly settings: BudgetSettings,
    private readonly now: () => number = Date.now,
  ) {}

  private pool(name: string): { settings: PoolSettings; state: PoolState } {
    const settings = poolSettingsOf(name, this.settings);
    let state = this.pools.get(name);
    if (!state) {
      state = newPoolState(settings, this.now());
      this.pools.set(name, state);
    }
    return { settings, state };
  }

  async reserve(pool: string, priority: Priority, cost: CallCost): Promise<ReserveResult> {
    const { settings, state } = this.pool(pool);
    const result = reserve(settings, state, cost, priority, this.now());
    if (!result.granted) return result;
    return { granted: true, reservation: { pool, priority, cost, taken: result.taken } };
  }

  async settle(reservation: Reservation, used: CallCost): Promise<void> {
    const { settings, state } = this.pool(reservation.pool);
    settle(settings, state, reservation.taken, used, reservation.priority, this.now());
  }

  async observe(pool: string, observation: ProviderObservation): Promise<void> {
    const { settings, state } = this.pool(pool);
    const now = this.now();
    observe(settings, state, observation.readings, now);
    if (observation.pauseMs !== undefined) pause(state, now + observation.pauseMs);
  }

  async wait(pool: string, priority: Priority, cost: CallCost): Promise<Wait> {
    const { settings, state } = this.pool(pool);
    return admission(settings, state, cost, priority, this.now());
  }

  /** A copy of a pool's state as of now, for tests and the capacity command. */
  snapshot(pool: string): PoolState {
    const { settings, state } = this.pool(pool);
    refill(settings, state, this.now());
    return structuredClone(state);
  }

  async close(): Promise<void> {}
}
