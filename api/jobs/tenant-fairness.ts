import type { Priority as TemporalPriority } from '@temporalio/common';
import type { Config } from '../../lib/config';

/**
 * What a job starts with so that, inside its priority's queue, tenants take turns by weight: Temporal's matching
 * dispatches tasks of different fairness keys in proportion to their weights, and the job's activities inherit
 * both. Without it a tenant's backlog of a thousand jobs is served first in, first out before another's fifty.
 */
export function tenantFairness(
  config: Pick<Config, 'temporal' | 'tenants'>,
  tenantId: string,
): { priority?: TemporalPriority } {
  if (!config.temporal.fairnessKeys) return {};
  const weight = config.tenants.find((tenant) => tenant.id === tenantId)?.fairnessWeight ?? 1;
  return { priority: { fairnessKey: tenantId, fairnessWeight: weight } };
}
