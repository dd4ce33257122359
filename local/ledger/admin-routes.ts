import { Router, type Request, type Response } from 'express';
import type { FaultInjector } from './fault-injector';
import { parseFaultSpec } from './fault-spec';
import { readJsonBody } from './json-body';
import type { Ledger } from './ledger';

/** `/_ledger/*`: test-only controls, which is one more reason the service listens on loopback only. */
export function createAdminRouter(deps: { ledger: Ledger; faults: FaultInjector }): Router {
  const { ledger, faults } = deps;
  const router = Router();

  router.get('/healthz', (_req: Request, res: Response) => {
    res.json({ status: 'ok' });
  });

  router.post('/_ledger/faults', async (req: Request, res: Response) => {
    const armed = faults.arm(parseFaultSpec(await readJsonBody(req, res)));
    res.status(200).json({ fault: armed });
  });

  router.get('/_ledger/faults', (_req: Request, res: Response) => {
    res.json({ fault: faults.current() ?? null });
  });

  router.delete('/_ledger/faults', (_req: Request, res: Response) => {
    faults.clear();
    res.status(204).end();
  });

  router.get('/_ledger/stats', (_req: Request, res: Response) => {
    res.json({ ...ledger.counters(), faultsInjected: faults.injectedCount });
  });

  return router;
}
