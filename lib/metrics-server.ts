import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface MetricsServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  registry: Registry;
  /**
   * More exposition text appended to ours, e.g. the Temporal SDK's own metrics, which its native runtime serves on
   * a private port: Prometheus then scrapes one endpoint per process.
   */
  extraSources?: Array<() => Promise<string>>;
}

/** `GET /metrics` in the Prometheus text format; nothing else is served. */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('only GET /metrics here\n');
      return;
    }
    void (async () => {
      try {
        const parts = [await options.registry.metrics()];
        for (const source of options.extraSources ?? []) {
          // A failing extra source must not hide our own metrics.
          parts.push(await source().catch((error: unknown) => `# source unavailable: ${String(error).replace(/\n/g, ' ')}\n`));
        }
        res.writeHead(200, { 'content-type': options.registry.contentType }).end(parts.join('\n'));
      } catch (error) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(error)}\n`);
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}/metrics`,
    port,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Reads another Prometheus endpoint's text, to be served alongside ours. */
export function scrapeSource(url: string, timeoutMs = 2_000): () => Promise<string> {
  return async () => {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return response.text();
  };
}
