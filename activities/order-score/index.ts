import type { ActivityDeps } from '../activity-deps';
import { createScoreOrder, type ScoreOrderDeps } from './score-order';
import { createScoreOrderBatchActivities } from './score-order-batch';

/** The `order.score` activities: one scoring call, and the old batch pair kept for histories that still call it. */
export function createOrderScoreActivities(deps: Pick<ActivityDeps, 'gateway' | 'config' | 'batchLane'>) {
  const score: ScoreOrderDeps = {
    gateway: deps.gateway,
    model: deps.config.anthropic.scoreModel,
    repairTries: deps.config.anthropic.repairTries,
    ...(deps.batchLane ? { lane: deps.batchLane } : {}),
  };
  return {
    scoreOrder: createScoreOrder(score),
    ...createScoreOrderBatchActivities({ ...score, lane: deps.batchLane }),
  };
}

export type OrderScoreActivities = ReturnType<typeof createOrderScoreActivities>;
