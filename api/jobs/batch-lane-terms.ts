import type { JobStart } from '../../common/job';
import type { Priority } from '../../common/task-queues';
import type { Config } from '../../lib/config';

/**
 * What lets a job's bulk calls take the batch lane (docs/gateway.md#the-batch-lane): `batchLane` in its input when
 * the lane is on and the job is bulk. A submitted job and a schedule's runs get it alike.
 */
export function batchLaneTerms(config: Pick<Config, 'batchLane'>, priority: Priority): Pick<JobStart, 'batchLane'> {
  if (!config.batchLane.enabled || priority !== 'bulk') return {};
  return { batchLane: { deadlineMarginMs: config.batchLane.deadlineMarginMs, maxWaitMs: config.batchLane.maxWaitMs } };
}
