import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { InvoiceActivities } from '../../activities';
import { fakeActivities } from './fake-activities';
import { batchUsage } from './lane-usage';
import { scriptedBatchLane, type ScriptedLaneOptions } from './scripted-batch-lane';

export const SCORED = { score: 0.05, decision: 'approve' as const, reasons: ['returning customer'] };
/** A bulk order that may wait two minutes in the lane, with a minute's margin. */
export const ORDER_LANE_ALLOWANCE = { batchLane: { deadlineMarginMs: 60_000, maxWaitMs: 120_000 }, priority: 'bulk' as const };

/**
 * order.score's lane with the real collector and batch workflows and their activities (scripted-batch-lane.ts) and
 * fake steps: `fromBatch` records the jobs that took their answer from a batch, `calls.scoreOrder` those that asked
 * live.
 */
export function scriptedOrderLane(client: Client, options: ScriptedLaneOptions & { jobs?: number } = {}) {
  const scripted = scriptedBatchLane(client, options);
  const fromBatch: string[] = [];
  const fake = fakeActivities({ scores: Array.from({ length: options.jobs ?? 10 }, () => SCORED) });
  const activities: InvoiceActivities = {
    ...fake.activities,
    ...scripted.activities,
    async scoreOrderFromBatch(input) {
      fromBatch.push(input.customId);
      return { outcome: 'valid', proposal: SCORED, usage: batchUsage, attempt: Context.current().info.attempt };
    },
  };
  return { activities, scripted, fromBatch, calls: fake.calls };
}
