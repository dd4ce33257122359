import type { Env } from '../settings/setting-sources';
import { apiArea } from './api-settings';
import { cliArea } from './cli-settings';
import type { CliConfig } from './config-types';
import { deploymentSetting, tenantsSetting } from './deployment-settings';
import { publicUrlOf, readerFor } from './load-config';

/**
 * The CLI's settings alone. It is a client: on a machine set up for production it must not need the tenants,
 * model key and S3 credentials that loadConfig insists on there. Defaults: this deployment's own API and, in
 * the local stack, the first tenant's key.
 */
export function loadCliConfig(env: Env = process.env): CliConfig {
  const reader = readerFor(env);
  const deployment = reader.read(deploymentSetting);
  const cli = reader.readTable(cliArea.settings);
  const ownApi = { publicUrl: reader.read(apiArea.settings.publicUrl), port: reader.read(apiArea.settings.port) };
  const localTenants = deployment === 'local' ? reader.read(tenantsSetting) : undefined;
  reader.finish();
  const apiKey = cli.apiKey ?? localTenants?.[0]?.apiKey;
  return { apiUrl: cli.apiUrl ?? publicUrlOf(ownApi), ...(apiKey ? { apiKey } : {}) };
}
