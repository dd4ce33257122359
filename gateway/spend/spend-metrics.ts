import { Counter, Gauge, type Registry } from 'prom-client';
import { METRIC_PREFIX } from '../../lib/metrics';
import type { SpendEvent } from './spend-capped-gateway';

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
    refusals: new Counter({
      name: `${METRIC_PREFIX}spend_cap_refusals_total`,
      help: 'Model calls refused because their tenant’s spend cap is reached (each parks its job in budget_wait)',
      labelNames: ['tenant', 'window'] as const,
      registers,
    }),
  };
}

/** The listener that keeps the spend metrics. */
export function spendMetricsListener(registry: Registry): (event: SpendEvent) => void {
  const metrics = createSpendMetrics(registry);
  return (event) => {
    if (event.type === 'refused') {
      metrics.refusals.inc({ tenant: event.tenantId, window: event.window });
      return;
    }
    metrics.spent.set({ tenant: event.tenantId, window: 'day' }, event.totals.day);
    metrics.spent.set({ tenant: event.tenantId, window: 'month' }, event.totals.month);
  };
}
