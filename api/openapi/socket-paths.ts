import { SocketClientMessage, SocketServerMessage } from '../../common/api-contract/job-socket';
import { SOCKET_PATH } from '../socket/socket-routes';
import { bodyRef, type Schema } from './refs';
import { json, responses } from './responses';

/** The WebSocket channel: the HTTP endpoint that mints its token, and the upgrade itself. */
export const socketPaths: Record<string, Schema> = {
  [`${SOCKET_PATH}/tokens`]: {
    post: {
      operationId: 'createSocketToken',
      summary: 'Mint a token that opens one WebSocket on /events/socket',
      description:
        'A browser cannot set headers on a WebSocket upgrade, and an API key in a URL would end up in logs: this authenticated call returns a short-lived (`WS_TOKEN_TTL`), single-use token and the socket URL that carries it. ' +
        'The socket acts for the same tenant and caller. Mint one per connection, and again to reconnect.',
      tags: ['jobs'],
      security: [{ apiKey: [] }, { reviewerToken: [] }],
      responses: responses(
        { '201': { description: 'A token and the URL to open.', headers: { 'Cache-Control': { schema: { type: 'string' } } }, content: json(bodyRef('SocketToken')) } },
        401,
      ),
    },
  },
  [SOCKET_PATH]: {
    get: {
      operationId: 'openJobSocket',
      summary: 'Follow many jobs’ events over one WebSocket',
      description:
        'A WebSocket (RFC 6455) upgrade with `?token=` from `POST /events/socket/tokens`; a bad, expired or used token is refused before the upgrade with 401. ' +
        'Over it the client sends JSON text messages (`x-client-messages`): `subscribe` to job ids or to a filter of the tenant’s jobs by type and status (the first page `GET /jobs` lists for it), each with an optional `lastEventIds` per job to resume, and `unsubscribe`. ' +
        'The server sends `subscribed`, `unsubscribed`, `event` (`status` and `progress` with the same `id` as the SSE stream’s, then `end` once a followed job is finished) and `error` (`invalid_message`, `not_found`, `subscription_exists`, `no_such_subscription`) messages (`x-server-messages`). ' +
        'The server pings every `WS_HEARTBEAT_INTERVAL` and drops a socket that missed a pong. Close codes: 4429 when the tenant is past `WS_MAX_CONNECTIONS_PER_TENANT` or `WS_MAX_SUBSCRIPTIONS_PER_TENANT` (the reason says which), 1003 for a binary message, 1008 after 20 invalid messages, 1009 for a message over 64 KiB, 1001 at shutdown. ' +
        'A plain GET without the upgrade answers 426 (401 without a token). See docs/clients.md.',
      tags: ['jobs'],
      security: [{ socketToken: [] }],
      'x-client-messages': SocketClientMessage,
      'x-server-messages': SocketServerMessage,
      responses: responses(
        {
          '101': { description: 'Switching Protocols: the WebSocket is open.' },
          // OpenAPI knows no WebSocket: an upgrade's one success is a 101, and lint asks for a 2xx or a default.
          default: { description: 'Any other answer (say, from a proxy that does not pass upgrades): an error in the usual shape.', content: json(bodyRef('ErrorBody')) },
          '426': {
            description: '`upgrade_required`: this path only speaks WebSocket.',
            headers: { Upgrade: { schema: { type: 'string', enum: ['websocket'] } } },
            content: json(bodyRef('ErrorBody')),
          },
        },
        401,
      ),
    },
  },
};
