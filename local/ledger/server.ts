import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '../../lib/logger';
import { createLedgerApp } from './app';
import { FaultInjector } from './fault-injector';
import { Ledger } from './ledger';
import { resolveLedgerOptions, type LedgerOptions } from './options';

export interface RunningLedgerServer {
  url: string;
  port: number;
  /** Stops accepting, lets in-flight posts finish (bounded), then releases the journal. Safe to call twice. */
  close(): Promise<void>;
}

/** In-flight requests get this long to finish on close; a `slow` fault must not hold a shutdown for minutes. */
const CLOSE_GRACE_MS = 5_000;

/** Loads the journal from the data dir, then listens. Options not given come from the environment (options.ts). */
export async function startLedgerServer(
  options: Partial<LedgerOptions> = {},
  deps: { log?: Logger } = {},
): Promise<RunningLedgerServer> {
  const config = resolveLedgerOptions(options);
  const log = deps.log ?? createLogger('ledger');
  const ledger = await Ledger.open({ dataDir: config.dataDir, log });
  const server = createServer(createLedgerApp({ ledger, faults: new FaultInjector(), log }));
  try {
    await listen(server, config);
  } catch (error) {
    await ledger.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    port,
    close: () => (closing ??= closeServer(server).then(() => ledger.close())),
  };
}

function listen(server: Server, config: LedgerOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    const forceClose = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    forceClose.unref();
    server.close((error) => {
      clearTimeout(forceClose);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}
