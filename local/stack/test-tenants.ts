/** Tenants of the private test stack: the demo tenant plus a second one to prove tenants cannot see each other. */
export const TEST_TENANTS = [
  {
    id: 'demo',
    apiKey: 'demo-key',
    reviewerToken: 'demo-reviewer-token',
    webhookSecret: 'whsec_ZGVtby13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5',
  },
  {
    id: 'acme',
    apiKey: 'acme-key',
    reviewerToken: 'acme-reviewer-token',
    webhookSecret: 'whsec_YWNtZS13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5',
  },
];

/** The local stack's operator key (lib/config/api-settings.ts: ADMIN_API_KEY defaults to `admin-key` in `local`). */
export const TEST_ADMIN_KEY = 'admin-key';
