import { setting, type SettingsArea } from '../settings/setting';
import { bool, duration, int, secret, text } from '../settings/setting-types';

/** Web Push to browsers and apps (docs/clients.md, "Web Push"): VAPID keys, limits, and what endpoints are taken. */
export const pushArea = {
  title: 'Web Push',
  settings: {
    enabled: setting({
      env: 'PUSH_ENABLED',
      type: bool(),
      default: 'false',
      doc: 'serve `/push/*` and push completion, failure and new review tasks to registered subscriptions; needs the three VAPID settings (a process refuses to start without them)',
    }),
    vapidPublicKey: setting({
      env: 'VAPID_PUBLIC_KEY',
      type: text(),
      doc: 'the VAPID public key (base64url, 65-byte uncompressed P-256 point) browsers pass as `applicationServerKey`; `npx web-push generate-vapid-keys` makes a pair (the local stack generates its own)',
    }),
    vapidPrivateKey: setting({
      env: 'VAPID_PRIVATE_KEY',
      type: secret(),
      doc: "the VAPID private key (base64url, 32 bytes) that signs each push's JWT (RFC 8292); must be the public key's pair",
    }),
    vapidSubject: setting({
      env: 'VAPID_SUBJECT',
      type: text(),
      doc: 'a `mailto:` or `https:` contact push services may use about our traffic (RFC 8292 §2.1)',
    }),
    maxSubscriptionsPerTenant: setting({
      env: 'PUSH_MAX_SUBSCRIPTIONS_PER_TENANT',
      type: int({ min: 1, max: 100_000 }),
      default: '1000',
      doc: 'push subscriptions one tenant may hold; past it `POST /push/subscriptions` answers 409 `too_many_subscriptions`',
    }),
    ttl: setting({
      env: 'PUSH_TTL',
      type: duration(),
      default: '24h',
      doc: 'how long a push service keeps a message for a device that is offline (the `TTL` header)',
    }),
    allowLoopbackHttp: setting({
      env: 'PUSH_ALLOW_LOOPBACK_HTTP',
      type: bool(),
      default: 'false',
      doc: 'accept `http:` endpoints on 127.0.0.1, `::1` and `localhost` (the local push-service stand-in); ignored in production, where endpoints must be `https:`',
    }),
  },
} satisfies SettingsArea;
