import type { Usage } from '../common/job';
import type { CallUsage } from '../gateway/model-call';

export function usageOfCall(call: CallUsage): Usage {
  return { ...call, calls: 1 };
}
