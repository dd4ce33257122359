import type { FromBatch } from '../../common/batch-lane';
import type { Usage } from '../../common/job';

/** A call answered in a batch, as the real steps count it: at half the price, under the batch lane. */
export const batchUsage: Usage = { inputTokens: 1000, outputTokens: 200, costUsd: 0.003, calls: 1, byLane: { batch: { calls: 1, costUsd: 0.003 } } };
/** The same call asked live. */
export const liveUsage: Usage = { inputTokens: 1000, outputTokens: 200, costUsd: 0.006, calls: 1, byLane: { live: { calls: 1, costUsd: 0.006 } } };
/** What a model step counts for a call, by the lane its input says it took. */
export const usageFor = (input: FromBatch): Usage => (input.fromBatch ? batchUsage : liveUsage);
