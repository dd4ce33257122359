import type { Env } from '../settings/setting-sources';
import { apiArea } from './api-settings';
import { cliArea } from './cli-settings';
import type { CliConfig } from './config-types';
import { publicUrlOf, readerFor } from './load-config';

/**
 * The CLI's settings alone. It is a client: it needs neither SLOWLANE_ENV nor the tenants, model key and S3
 * credentials the servers insist on. Its key comes from SLOWLANE_API_KEY or `--key` (`npm start` prints the local
 * one); its API defaults to this machine's.
 */
export function loadCliConfig(env: Env = process.env): CliConfig {
  const reader = readerFor(env);
  const cli = reader.readTable(cliArea.settings);
  const ownApi = { publicUrl: reader.read(apiArea.settings.publicUrl), port: reader.read(apiArea.settings.port) };
  reader.finish();
  return { apiUrl: cli.apiUrl ?? publicUrlOf(ownApi), ...(cli.apiKey ? { apiKey: cli.apiKey } : {}) };
}
