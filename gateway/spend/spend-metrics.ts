import { Counter, Gauge, type Registry } from 'prom-client';
import { METRIC_PREFIX } from '../../lib/metrics';
import type { SpendEvent } from './tenant-spend';
import type { SpendCaps } from './spend-windows';

/** Each tenant's model spend against its caps, as this worker process last saw it settle or refuse a call. */
export function createSpendMetrics(registry: Registry) {
  const registers = [registry];
  return {
    spent: new Gauge({
      name: `${METRIC_PREFIX}tenant_spend_usd`,
      help: "A tenant's model spend in the current UTC day or month (the shared total after this worker's last call; take max over workers)",
      labelNames: ['tenant', 'window'] as const,
      registers,
    }),
    caps: new Gauge({
      name: `${METRIC_PREFIX}tenant_spend_cap_usd`,
      help: "A tenant's spend cap per UTC day or month (TENANT_SPEND_CAPS); absent for a window without a cap",
      labelNames: ['tenant', 'window'] as const,
      registers,
    }),
    refusals: new Counter({
      name: `${METRIC_PREFIX}spend_cap_refusals_total`,
      help: 'Model calls refused because their tenant’s spend cap is reached (each parks its job in budget_wait)',
      labelNames: ['tenant', 'window'] as const,
      registers,
    }),
    deferred: new Counter({
      name: `${METRIC_PREFIX}spend_settlements_deferred_total`,
      help: 'Paid calls whose spend the store did not settle (Redis away): recorded in S3 and settled later by a worker',
      labelNames: ['tenant'] as const,
      registers,
    }),
  };
}

/** The listener that keeps the spend metrics, after setting each tenant's caps. */
export function spendMetricsListener(registry: Registry, caps: Readonly<Record<string, SpendCaps>>): (event: SpendEvent) => void {
  const metrics = createSpendMetrics(registry);
  for (const [tenant, cap] of Object.entries(caps)) {
    if (cap.dailyUsd !== undefined) metrics.caps.set({ tenant, window: 'day' }, cap.dailyUsd);
    if (cap.monthlyUsd !== undefined) metrics.caps.set({ tenant, window: 'month' }, cap.monthlyUsd);
  }
  return (event) => {
    if (event.type === 'refused') {
      metrics.refusals.inc({ tenant: event.tenantId, window: event.window });
      return;
    }
    if (event.type === 'deferred') {
      metrics.deferred.inc({ tenant: event.tenantId });
      return;
    }
    metrics.spent.set({ tenant: event.tenantId, window: 'day' }, event.totals.day);
    metrics.spent.set({ tenant: event.tenantId, window: 'month' }, event.totals.month);
  };
}
