import { TokenBudgetExhaustedError } from '../common/errors';
import type { Priority } from '../common/task-queues';
import type { CallCost } from './budget/bucket-math';
import type { Reservation, TokenBudget } from './budget/token-budget';
import type { GatewayEvents } from './gateway-events';
import { retryDelayAfterDenial } from './retry-delay';

export interface ReservingCall {
  jobId: string;
  model: string;
  priority: Priority;
}

/**
 * Reserves a call's estimate from a provider's budget, or throws the retryable error that hands the activity slot
 * back until the tokens exist. Without a budget calls go straight out (the benchmark's naive mode). Every provider
 * of the gateway reserves through here, each against its own budget.
 */
export async function reserveCall(
  deps: { budget: TokenBudget | undefined; events: GatewayEvents; random: () => number },
  call: ReservingCall,
  pool: string,
  cost: CallCost,
): Promise<Reservation | undefined> {
  if (!deps.budget) return undefined;
  const result = await deps.budget.reserve(pool, call.priority, cost);
  const base = { jobId: call.jobId, model: call.model, pool, priority: call.priority };
  if (result.granted) {
    deps.events.emit({ type: 'reserved', ...base, cost });
    return result.reservation;
  }
  deps.events.emit({ type: 'denied', ...base, waitMs: result.waitMs, limitedBy: result.limitedBy });
  const retryAfterMs = retryDelayAfterDenial(result.waitMs, deps.random);
  throw new TokenBudgetExhaustedError(
    result.limitedBy === 'paused'
      ? `the provider asked the fleet to pause calls to ${call.model}; retry in ${retryAfterMs} ms`
      : `the ${call.priority} share of the ${result.limitedBy} budget cannot cover this call yet; retry in ${retryAfterMs} ms`,
    { retryAfterMs, details: { pool, limitedBy: result.limitedBy, priority: call.priority } },
  );
}
