import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  id: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered. */
  status: number;
}

export interface WebhookReceiver {
  url: string;
  deliveries: ReceivedWebhook[];
  /** Deliveries the receiver accepted (2xx), by webhook-id. */
  accepted(): Map<string, ReceivedWebhook[]>;
  /** Resolves once `predicate` holds for the deliveries so far, or fails after `timeoutMs`. */
  waitFor(predicate: (deliveries: ReceivedWebhook[]) => boolean, timeoutMs: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 that records every request. `failFirst` makes it answer 500 to the first N
 * attempts of each event id (a receiver that is down, then recovers); `goneFirst` answers 410 Gone to them instead
 * (a receiver misconfigured, then fixed: Slowlane gives those deliveries up at once).
 */
export async function startWebhookReceiver(options: { failFirst?: number; goneFirst?: number } = {}): Promise<WebhookReceiver> {
  const deliveries: ReceivedWebhook[] = [];
  const attempts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      const attempt = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, attempt);
      const status = attempt <= (options.goneFirst ?? 0) ? 410 : attempt <= (options.failFirst ?? 0) ? 500 : 204;
      deliveries.push({ id, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/slowlane`,
    deliveries,
    accepted() {
      const byId = new Map<string, ReceivedWebhook[]>();
      for (const delivery of deliveries.filter((d) => d.status < 300)) {
        byId.set(delivery.id, [...(byId.get(delivery.id) ?? []), delivery]);
      }
      return byId;
    },
    async waitFor(predicate, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(deliveries)) {
        if (Date.now() > deadline) {
          throw new Error(`webhook receiver: condition not met in ${timeoutMs} ms; got ${JSON.stringify(deliveries.map((d) => [d.id, d.status]))}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return deliveries;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
