import { type NextFunction, type Request, type Response, Router } from 'express';
import type { VapidPublicKey } from '../../common/api-contract/push';
import type { Config } from '../../lib/config';
import { ApiError } from '../api-error';
import { authenticate, callerOf } from '../auth';
import { checkRequest, requestValidators } from '../request-validation';
import { PUSH_SERVICE_WORKER, PUSH_SUBSCRIBE_HELPER } from './push-browser-scripts';
import type { PushService } from './push-service';

export const PUSH_PATH = '/push';

const SUBSCRIPTION_EXAMPLE = '{"endpoint":"https://push.example/…","keys":{"p256dh":"BP…","auth":"…"},"reviewQueue":true}';

/** `/push/*`: thin routes over the push use cases; API keys and reviewers (the reviewer page subscribes its person). */
export function pushRouter(deps: { push: PushService; config: Pick<Config, 'tenants' | 'people' | 'push'> }): Router {
  const { push, config } = deps;
  const router = Router();
  const callers = authenticate(config, ['api', 'reviewer']);
  // Off unless the deployment enabled it (PUSH_ENABLED): nothing here works without VAPID keys.
  const enabled = (_req: Request, _res: Response, next: NextFunction) =>
    next(config.push.vapid ? undefined : new ApiError(404, 'not_found', 'Web Push is not enabled on this deployment (PUSH_ENABLED)'));

  router.get(`${PUSH_PATH}/vapid-public-key`, enabled, (_req, res) => {
    const body: VapidPublicKey = { publicKey: config.push.vapid?.publicKey ?? '' };
    res.json(body);
  });

  router.post(`${PUSH_PATH}/subscriptions`, enabled, callers, async (req: Request, res: Response) => {
    // Exactly one of jobId and reviewQueue: the service says so in words, where the schema's oneOf would not.
    const request = checkRequest(requestValidators.pushSubscriptionRequest, req.body, {
      example: SUBSCRIPTION_EXAMPLE,
      deferred: (error) => error.schemaPath.startsWith('#/oneOf') || (error.keyword === 'oneOf' && error.instancePath === ''),
    });
    const { subscription, created } = await push.subscribe(callerOf(res), request);
    res.status(created ? 201 : 200).location(`${PUSH_PATH}/subscriptions/${subscription.id}`).json(subscription);
  });

  router.get(`${PUSH_PATH}/subscriptions`, enabled, callers, async (_req: Request, res: Response) => {
    res.json(await push.list(callerOf(res).tenant.id));
  });

  router.delete(`${PUSH_PATH}/subscriptions/:id`, enabled, callers, async (req: Request, res: Response) => {
    await push.remove(callerOf(res).tenant.id, String(req.params.id));
    res.status(204).end();
  });

  const script = (source: string) => (_req: Request, res: Response) => {
    res.type('text/javascript').set('cache-control', 'no-cache').send(source);
  };
  router.get(`${PUSH_PATH}/service-worker.js`, enabled, script(PUSH_SERVICE_WORKER));
  router.get(`${PUSH_PATH}/subscribe.js`, enabled, script(PUSH_SUBSCRIBE_HELPER));
  return router;
}
