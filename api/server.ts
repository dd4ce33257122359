import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type AppDeps } from './app';

export interface RunningApi {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the API; port 0 picks a free port (tests). */
export async function startApiServer(deps: AppDeps, listen: { host: string; port: number }): Promise<RunningApi> {
  const app = createApp(deps);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(listen.port, listen.host, () => resolve(s));
    s.on('error', reject);
  });
  // A 25 MB upload on a slow link can take longer than Node's default 5 minutes to arrive.
  server.requestTimeout = 10 * 60 * 1000;
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${listen.host}:${port}`,
    port,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
