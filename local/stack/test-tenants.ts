/** Tenants of the private test stack: the demo tenant plus a second one to prove tenants cannot see each other. */
export const TEST_TENANT_IDS = ['demo', 'acme'];
