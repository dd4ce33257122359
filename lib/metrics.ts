import { collectDefaultMetrics, Registry } from 'prom-client';

/** Every metric Slowlane defines itself starts with this; the Temporal SDK's own start with `temporal_`. */
export const METRIC_PREFIX = 'slowlane_';

/**
 * Histogram buckets in seconds, chosen per thing measured: a step takes seconds to minutes, a whole job up to
 * the 48 h review wait (and the 14 d dead-letter wait), a review minutes to two days.
 */
export const BUCKETS = {
  stepSeconds: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800],
  jobSeconds: [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600, 4 * 3600, 12 * 3600, 24 * 3600, 48 * 3600, 7 * 86_400],
  reviewSeconds: [30, 60, 300, 900, 1800, 3600, 2 * 3600, 4 * 3600, 8 * 3600, 12 * 3600, 24 * 3600, 36 * 3600, 48 * 3600],
  httpSeconds: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  tokens: [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000],
  costUsd: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
};

/** A registry with the Node process's own metrics (CPU, memory, event-loop lag) under their usual names. */
export function createRegistry(service: 'api' | 'worker'): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}
