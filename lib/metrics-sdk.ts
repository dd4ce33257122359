import { createServer } from 'node:net';
import type { RuntimeOptions } from '@temporalio/worker';

/** A port free on `host` right now; the SDK's native exporter needs a concrete address to bind. */
function freePortOn(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface SdkMetrics {
  telemetryOptions: NonNullable<RuntimeOptions['telemetryOptions']>;
  /** Where the SDK's exporter serves; our /metrics appends what it reads there. */
  url: string;
}

/**
 * The Temporal SDK's own metrics (worker slots, poll latency, schedule-to-start, workflow task failures), served
 * by its native runtime on a private loopback port and re-served by our /metrics. Names follow Prometheus
 * conventions (`_total` counters, durations in seconds with the unit in the name).
 */
export async function sdkMetricsOptions(service: string): Promise<SdkMetrics> {
  const host = '127.0.0.1';
  const port = await freePortOn(host);
  return {
    telemetryOptions: {
      metrics: {
        prometheus: { bindAddress: `${host}:${port}`, countersTotalSuffix: true, unitSuffix: true, useSecondsForDurations: true },
        globalTags: { service },
      },
    },
    url: `http://${host}:${port}/metrics`,
  };
}
