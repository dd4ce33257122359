import express, { type Express } from 'express';
import type { Logger } from '../../lib/logger';
import { createAdminRouter } from './admin-routes';
import { createEntriesRouter } from './entries-routes';
import { answerRouteNotFound, createErrorHandler } from './error-handler';
import type { FaultInjector } from './fault-injector';
import type { Ledger } from './ledger';

export function createLedgerApp(deps: { ledger: Ledger; faults: FaultInjector; log: Logger }): Express {
  const app = express();
  app.disable('x-powered-by');
  // Repeated query parameters arrive as arrays, which the filters reject; no nested qs objects.
  app.set('query parser', 'simple');
  app.use(createEntriesRouter(deps));
  app.use(createAdminRouter(deps));
  app.use(answerRouteNotFound);
  app.use(createErrorHandler(deps.log));
  return app;
}
