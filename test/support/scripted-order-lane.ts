import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { answerRefusedBefore } from '../../lib/answer-refusals';
import { type FakeActivities, fakeActivities } from './fake-activities';
import { batchUsage } from './lane-usage';
import { scriptedBatchLane, type ScriptedLaneOptions } from './scripted-batch-lane';

export const SCORED = { score: 0.05, decision: 'approve' as const, reasons: ['returning customer'] };
/** A bulk order that may wait two minutes in the lane, with a minute's margin. */
export const ORDER_LANE_ALLOWANCE = { batchLane: { deadlineMarginMs: 60_000, maxWaitMs: 120_000 }, priority: 'bulk' as const };

/**
 * order.score's lane with the real collector and batch workflows and their activities (scripted-batch-lane.ts) and
 * fake steps: `fromBatch` records the jobs whose scoreOrder took its answer from a batch (unless an earlier attempt
 * found it wrong, as first-call-from-batch.ts has it), `calls.scoreOrder` those that asked live.
 */
export function scriptedOrderLane(client: Client, options: ScriptedLaneOptions & { jobs?: number } = {}) {
  const scripted = scriptedBatchLane(client, options);
  const fromBatch: string[] = [];
  const fake = fakeActivities({ scores: Array.from({ length: options.jobs ?? 10 }, () => SCORED) });
  const activities: FakeActivities = {
    ...fake.activities,
    ...scripted.activities,
    async scoreOrder(input) {
      const { attempt, heartbeatDetails } = Context.current().info;
      if (!input.fromBatch || answerRefusedBefore(heartbeatDetails)) return fake.activities.scoreOrder(input);
      fromBatch.push(input.fromBatch.customId);
      return { outcome: 'valid', proposal: SCORED, usage: batchUsage, attempt };
    },
  };
  return { activities, scripted, fromBatch, calls: fake.calls };
}
