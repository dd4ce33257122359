import type { Usage } from '../common/job';
import type { CallUsage } from '../gateway/model-call';

/** One call's usage as the job counts it, under the lane it took. */
export function usageOfCall(call: CallUsage): Usage {
  const { lane = 'live', ...tokens } = call;
  return { ...tokens, calls: 1, byLane: { [lane]: { calls: 1, costUsd: call.costUsd } } };
}
