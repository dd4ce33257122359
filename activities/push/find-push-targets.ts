import type { PushScope, PushTarget } from '../../common/push';
import type { PushSubscriptions } from '../../lib/push/push-subscriptions';

export interface FindPushTargetsInput {
  tenantId: string;
  scope: PushScope;
  jobId: string;
}

/** The subscriptions that follow this job (or the tenant's review queue): ids only, the keys stay in the store. */
export function createFindPushTargets(subscriptions: PushSubscriptions) {
  return async function findPushTargets(input: FindPushTargetsInput): Promise<PushTarget[]> {
    return subscriptions.targets(input.tenantId, input.scope, input.jobId);
  };
}
