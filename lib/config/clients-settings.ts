import { setting, type SettingsArea } from '../settings/setting';
import { bool, duration, int } from '../settings/setting-types';

/** How results reach clients: webhooks, SSE and the WebSocket channel (docs/clients.md). */
export const clientsArea = {
  title: 'Webhooks and events',
  settings: {
    allowPrivateCallbackUrls: setting({
      env: 'WEBHOOK_ALLOW_PRIVATE_URLS',
      type: bool(),
      // Off unless a deployment says so (the local stack does, for its receivers on 127.0.0.1): a tenant must
      // not make our workers call into our own network.
      default: 'false',
      doc: 'accept callback URLs on loopback, private and link-local addresses (checked at submit and again against the DNS answers at delivery)',
    }),
    eventsPollMs: setting({
      env: 'SSE_POLL_INTERVAL',
      type: duration(),
      default: '1s',
      doc: 'how often an open event stream or WebSocket subscription looks for new events',
    }),
    socketMaxConnectionsPerTenant: setting({
      env: 'WS_MAX_CONNECTIONS_PER_TENANT',
      type: int({ min: 1, max: 10_000 }),
      default: '16',
      doc: 'open `GET /events/socket` connections per tenant on one API process; past it the new connection is closed with code 4429',
    }),
    socketMaxSubscriptionsPerTenant: setting({
      env: 'WS_MAX_SUBSCRIPTIONS_PER_TENANT',
      type: int({ min: 1, max: 100_000 }),
      default: '500',
      doc: 'jobs and filters one tenant follows over its WebSockets on one API process (each job id counts one, each filter one); a subscribe past it closes the connection with code 4429',
    }),
    socketHeartbeat: setting({
      env: 'WS_HEARTBEAT_INTERVAL',
      type: duration(),
      default: '30s',
      doc: 'how often the server pings each WebSocket; a socket that has not answered the previous ping by then is dropped',
    }),
    socketTokenTtl: setting({
      env: 'WS_TOKEN_TTL',
      type: duration(),
      default: '60s',
      doc: 'how long a token from `POST /events/socket/tokens` may open a WebSocket (once)',
    }),
  },
} satisfies SettingsArea;
