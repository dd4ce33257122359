import { Router, type Request, type Response } from 'express';
import { callbackUrlPolicy, checkCallbackUrl } from '../../lib/callback-url';
import type { Config } from '../../lib/config';
import { apiErrors } from '../api-error';
import { authenticate, callerOf } from '../auth';
import { checkRequest, requestValidators } from '../request-validation';
import type { SchedulesService } from './schedules-service';

const SCHEDULE_EXAMPLE = '{"scheduleId":"nightly","type":"tickets.digest","cron":"0 6 * * *","timezone":"Europe/Berlin","input":{"jobId":"tickets.digest:<tenant>:<key>"}}';

/** An optional JSON body (pause and resume may say why); an absent body reads as `{}`. */
const noteOf = (req: Request): string | undefined =>
  checkRequest(requestValidators.scheduleStateRequest, req.body ?? {}).note;

/** `/schedules`: thin routes over the schedules use cases; API keys only (a reviewer token cannot schedule work). */
export function schedulesRouter(deps: { schedules: SchedulesService; config: Pick<Config, 'tenants' | 'people' | 'clients' | 'deployment'> }): Router {
  const { schedules, config } = deps;
  const router = Router();
  const apiCallers = authenticate(config, ['api']);
  const idOf = (req: Request): string => String(req.params.id);

  router.post('/schedules', apiCallers, async (req: Request, res: Response) => {
    // Both or neither of cron and every: scheduleSpecOf says so in words, where the schema's oneOf would not.
    const request = checkRequest(requestValidators.scheduleRequest, req.body, {
      example: SCHEDULE_EXAMPLE,
      deferred: (error) => error.schemaPath.startsWith('#/oneOf') || (error.keyword === 'oneOf' && error.instancePath === ''),
    });
    const tenant = callerOf(res).tenant;
    const callbackUrl = request.callbackUrl ?? tenant.defaultCallbackUrl;
    if (callbackUrl !== undefined) {
      const checked = checkCallbackUrl(callbackUrl, callbackUrlPolicy(config));
      if (!checked.ok) throw apiErrors.invalidRequest(`callbackUrl ${checked.reason}`, { field: 'callbackUrl' });
    }
    const schedule = await schedules.create(tenant.id, request, callbackUrl);
    res.status(201).location(schedule.links.self ?? '').json(schedule);
  });

  router.get('/schedules', apiCallers, async (_req: Request, res: Response) => {
    res.json(await schedules.list(callerOf(res).tenant.id));
  });

  router.get('/schedules/:id', apiCallers, async (req: Request, res: Response) => {
    res.json(await schedules.get(callerOf(res).tenant.id, idOf(req)));
  });

  router.post('/schedules/:id/pause', apiCallers, async (req: Request, res: Response) => {
    res.json(await schedules.pause(callerOf(res).tenant.id, idOf(req), noteOf(req)));
  });

  router.post('/schedules/:id/resume', apiCallers, async (req: Request, res: Response) => {
    res.json(await schedules.resume(callerOf(res).tenant.id, idOf(req), noteOf(req)));
  });

  router.post('/schedules/:id/trigger', apiCallers, async (req: Request, res: Response) => {
    res.status(202).json(await schedules.trigger(callerOf(res).tenant.id, idOf(req)));
  });

  router.delete('/schedules/:id', apiCallers, async (req: Request, res: Response) => {
    await schedules.remove(callerOf(res).tenant.id, idOf(req));
    res.status(204).end();
  });

  return router;
}
