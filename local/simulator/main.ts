import { createLogger } from '../../lib/logger';
import { ConfigError } from '../../lib/settings/config-error';
import { loadOptions, logLevelFrom } from './options';
import { startSimulator } from './server';

/** `tsx simulator/main.ts [--port=8787 --rpm=50 ...]`: the provider simulator as a process of the local stack. */
async function main(): Promise<void> {
  let options;
  let logLevel;
  try {
    logLevel = logLevelFrom(process.env);
    options = loadOptions(process.env, process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`simulator: ${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  const log = createLogger('simulator', logLevel);
  const simulator = await startSimulator(options);
  log.info({ url: simulator.url, seed: options.seed }, `provider simulator listening on ${simulator.url}`);

  const stop = (signal: NodeJS.Signals): void => {
    log.info({ signal }, 'provider simulator stopping');
    simulator.close().then(
      () => {
        process.exitCode = 0;
      },
      (error: unknown) => {
        log.error({ err: error }, 'provider simulator did not close cleanly');
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`simulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
