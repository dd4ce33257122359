import { Counter, Histogram, type Registry } from 'prom-client';
import { BUCKETS, METRIC_PREFIX } from '../lib/metrics';
import type { GatewayEvent, GatewayEvents } from './gateway-events';

/** Provider calls as the model gateway saw them: the 429 share, latency, billed tokens, budget denials. */
export function createGatewayMetrics(registry: Registry) {
  const registers = [registry];
  return {
    calls: new Counter({
      name: `${METRIC_PREFIX}model_calls_total`,
      help: 'Calls to the model provider by model, priority and HTTP status (0: no answer)',
      labelNames: ['model', 'priority', 'status'] as const,
      registers,
    }),
    callDuration: new Histogram({
      name: `${METRIC_PREFIX}model_call_duration_seconds`,
      help: 'Provider call latency by model and HTTP status',
      labelNames: ['model', 'status'] as const,
      buckets: BUCKETS.stepSeconds,
      registers,
    }),
    billedTokens: new Counter({
      name: `${METRIC_PREFIX}provider_tokens_total`,
      help: 'Tokens the provider billed, by model and direction (calls whose step later failed included)',
      labelNames: ['model', 'direction'] as const,
      registers,
    }),
    denials: new Counter({
      name: `${METRIC_PREFIX}budget_denials_total`,
      help: 'Calls the shared token budget held back (the step retries when tokens exist), by what ran out',
      labelNames: ['model', 'priority', 'limited_by'] as const,
      registers,
    }),
    pauses: new Counter({
      name: `${METRIC_PREFIX}budget_pauses_total`,
      help: 'Times a provider 429 paused the whole fleet’s calls to a model',
      labelNames: ['model'] as const,
      registers,
    }),
  };
}

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;

/**
 * Counts the gateway's events, of every provider (each has its own event source; the model label tells them
 * apart); returns the function that stops listening.
 */
export function recordGatewayEvents(registry: Registry, ...sources: GatewayEvents[]): () => void {
  const metrics = createGatewayMetrics(registry);
  const listener = (event: GatewayEvent): void => {
    switch (event.type) {
      case 'call': {
        const status = String(event.status);
        metrics.calls.inc({ model: event.model, priority: event.priority, status });
        metrics.callDuration.observe({ model: event.model, status }, event.latencyMs / 1000);
        metrics.billedTokens.inc({ model: event.model, direction: 'input' }, event.inputTokens);
        metrics.billedTokens.inc({ model: event.model, direction: 'output' }, event.outputTokens);
        return;
      }
      case 'denied':
        metrics.denials.inc({ model: event.model, priority: event.priority, limited_by: event.limitedBy });
        return;
      case 'paused':
        metrics.pauses.inc({ model: event.model });
        return;
      case 'reserved':
        return;
    }
  };
  const stops = sources.map((events) => events.subscribe(listener));
  return () => stops.forEach((stop) => stop());
}
