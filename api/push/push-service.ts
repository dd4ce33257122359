import type { PushScope, PushSubscriptionList, PushSubscriptionRequest, PushSubscriptionView } from '../../common/api-contract/push';
import { callbackUrlPolicy } from '../../lib/callback-url';
import type { Config } from '../../lib/config';
import { authSecretProblem, p256PublicKeyProblem } from '../../lib/push/p256-keys';
import { checkPushEndpoint } from '../../lib/push/push-endpoint';
import { type PushSubscriptionRecord, type PushSubscriptions, pushSubscriptionId } from '../../lib/push/push-subscriptions';
import { ApiError, apiErrors } from '../api-error';
import type { Caller } from '../auth';
import type { JobsService } from '../jobs-service';

export interface PushServiceDeps {
  subscriptions: PushSubscriptions;
  jobs: Pick<JobsService, 'get'>;
  config: Pick<Config, 'push' | 'deployment' | 'clients'>;
  now?: () => Date;
}

const tooMany = (limit: number) =>
  new ApiError(409, 'too_many_subscriptions', `this tenant already holds ${limit} push subscriptions; delete some first`, { limit });

/** `/push/subscriptions`: a tenant's Web Push subscriptions, each for one of its jobs or for its review queue. */
export function createPushService(deps: PushServiceDeps) {
  const { subscriptions, jobs, config } = deps;
  const now = deps.now ?? (() => new Date());

  function scopeOf(request: PushSubscriptionRequest): { scope: PushScope; jobId?: string } {
    if (request.jobId !== undefined && request.reviewQueue === undefined) return { scope: 'job', jobId: request.jobId };
    if (request.reviewQueue === true && request.jobId === undefined) return { scope: 'review_queue' };
    throw apiErrors.invalidRequest('give exactly one of "jobId" (follow one job) and "reviewQueue": true (follow new review tasks)', { field: 'jobId' });
  }

  /** The strict checks a schema cannot make: the endpoint's scheme and host, and that the keys are real P-256 keys. */
  function checked(request: PushSubscriptionRequest): string {
    const endpoint = checkPushEndpoint(request.endpoint, callbackUrlPolicy(config), config.push.allowLoopbackHttp);
    if (!endpoint.ok) throw apiErrors.invalidRequest(`"endpoint" ${endpoint.reason}`, { field: 'endpoint' });
    const p256dh = p256PublicKeyProblem(request.keys.p256dh);
    if (p256dh) throw apiErrors.invalidRequest(`"keys.p256dh" ${p256dh}`, { field: 'keys' });
    const auth = authSecretProblem(request.keys.auth);
    if (auth) throw apiErrors.invalidRequest(`"keys.auth" ${auth}`, { field: 'keys' });
    return endpoint.url.href;
  }

  return {
    /** Registers (or renews: the same endpoint for the same scope is one subscription) and says whether it is new. */
    async subscribe(caller: Caller, request: PushSubscriptionRequest): Promise<{ subscription: PushSubscriptionView; created: boolean }> {
      const tenantId = caller.tenant.id;
      const { scope, jobId } = scopeOf(request);
      const endpoint = checked(request);
      // A job of another tenant answers as a missing one (api/jobs/job-reader.ts).
      if (jobId !== undefined) await jobs.get(tenantId, jobId);
      const id = pushSubscriptionId(tenantId, scope, jobId, endpoint);
      const existing = await subscriptions.find(tenantId, id);
      // Counted before the write; two racing registrations may pass the cap by one each, which the cap tolerates.
      if (!existing && (await subscriptions.count(tenantId)) >= config.push.maxSubscriptionsPerTenant) throw tooMany(config.push.maxSubscriptionsPerTenant);
      const record: PushSubscriptionRecord = {
        id,
        tenantId,
        scope,
        ...(jobId !== undefined ? { jobId } : {}),
        endpoint,
        keys: { p256dh: request.keys.p256dh, auth: request.keys.auth },
        createdAt: existing?.createdAt ?? now().toISOString(),
        createdBy: caller.identity,
      };
      const created = await subscriptions.put(record);
      return { subscription: viewOf(record), created };
    },

    async list(tenantId: string): Promise<PushSubscriptionList> {
      const records = await subscriptions.list(tenantId);
      return { subscriptions: records.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)).map(viewOf) };
    },

    /** Removes the tenant's subscription; another tenant's id answers 404 like a missing one. */
    async remove(tenantId: string, id: string): Promise<void> {
      const record = await subscriptions.find(tenantId, id);
      if (!record) throw apiErrors.notFound(`push subscription ${id}`);
      await subscriptions.remove(tenantId, { id, scope: record.scope }, record.jobId ?? '');
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;

function viewOf(record: PushSubscriptionRecord): PushSubscriptionView {
  return {
    id: record.id,
    scope: record.scope,
    ...(record.jobId !== undefined ? { jobId: record.jobId } : {}),
    endpointOrigin: new URL(record.endpoint).origin,
    createdAt: record.createdAt,
    createdBy: record.createdBy,
  };
}
