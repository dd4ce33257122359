import { createLogger } from '../../lib/logger';
import { resolveLedgerOptions } from './options';
import { startLedgerServer } from './server';

/** `tsx ledger/main.ts`: the ledger stand-in as a process, configured by LEDGER_* variables. */
const log = createLogger('ledger');

async function main(): Promise<void> {
  const options = resolveLedgerOptions();
  const server = await startLedgerServer(options, { log });
  log.info({ url: server.url, dataDir: options.dataDir }, 'ledger listening');

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A second signal means "now": whatever was acknowledged is already fsync'd.
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'ledger stopping');
    server.close().then(
      () => log.info('ledger stopped'),
      (error: unknown) => {
        log.error({ err: error }, 'ledger did not stop cleanly');
        process.exitCode = 1;
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  log.fatal({ err: error }, 'ledger failed to start');
  process.exitCode = 1;
});
