import type { Config } from './config-types';

/** The tenant's own retention, else the default (RETENTION, TENANT_RETENTION). */
export function retentionMsOf(retention: Config['retention'], tenantId: string): number {
  return retention.tenantMs[tenantId] ?? retention.defaultMs;
}
