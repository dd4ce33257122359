import { Router, type Request, type Response } from 'express';
import type { Config } from '../../lib/config';
import type { AuditTrail } from '../../lib/audit/audit-trail';
import { authenticate, callerOf } from '../auth';
import { auditQueryOf, listAudit } from './list-audit';

/** `GET /audit`: the tenant's own audit trail, with its API key. Reviewer tokens cannot read it. */
export function auditRouter(deps: { audit: AuditTrail; config: Pick<Config, 'api' | 'tenants' | 'people'> }): Router {
  const router = Router();
  router.get('/audit', authenticate(deps.config, ['api']), async (req: Request, res: Response) => {
    res.json(await listAudit(deps.audit, deps.config.api.pageTokenSecret, callerOf(res).tenant.id, auditQueryOf(req)));
  });
  return router;
}
