import { setting, type SettingsArea } from '../settings/setting';
import { bool, duration } from '../settings/setting-types';

/** How results reach clients: webhooks and SSE (docs/clients.md). */
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
      doc: 'how often an open event stream looks for new events',
    }),
  },
} satisfies SettingsArea;
