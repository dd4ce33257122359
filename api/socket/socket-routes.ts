import { Router } from 'express';
import type { SocketToken } from '../../common/api-contract/job-socket';
import type { Config } from '../../lib/config';
import { ApiError, apiErrors } from '../api-error';
import { authenticate, callerOf } from '../auth';
import type { SocketTokens } from './socket-tokens';

/** Where the WebSocket channel listens; api/socket/job-socket-server.ts takes the upgrade before Express sees it. */
export const SOCKET_PATH = '/events/socket';

/** `POST /events/socket/tokens` mints what opens the socket; a plain `GET` on the socket's path is told to upgrade. */
export function socketRouter(deps: { config: Pick<Config, 'tenants' | 'people' | 'api'>; tokens: SocketTokens }): Router {
  const router = Router();
  router.post(`${SOCKET_PATH}/tokens`, authenticate(deps.config, ['api', 'reviewer']), (_req, res) => {
    const { token, expiresAt } = deps.tokens.mint(callerOf(res));
    const url = new URL(`${deps.config.api.publicUrl}${SOCKET_PATH}?token=${token}`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const body: SocketToken = { token, expiresAt: expiresAt.toISOString(), url: url.href };
    res.status(201).set('cache-control', 'no-store').json(body);
  });
  router.get(SOCKET_PATH, (req, res) => {
    // Without a token the answer is the upgrade's own (401); with one, the request only lacks the upgrade.
    if (typeof req.query.token !== 'string') throw apiErrors.unauthorized();
    res.set('upgrade', 'websocket');
    throw new ApiError(426, 'upgrade_required', `${SOCKET_PATH} is a WebSocket: open it with a token from POST ${SOCKET_PATH}/tokens (docs/clients.md)`);
  });
  return router;
}
