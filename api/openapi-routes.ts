import { Router } from 'express';
import type { Config } from '../lib/config';
import { openApiDocument } from './openapi/document';

/** `GET /openapi.json`: the contract the integration tests hold every response to. */
export function openApiRouter(deps: { config: Pick<Config, 'api'> }): Router {
  const router = Router();
  const document = JSON.stringify(openApiDocument({ serverUrl: deps.config.api.publicUrl }));
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('cache-control', 'no-cache').send(document);
  });
  return router;
}
