import { homedir } from 'node:os';
import { join } from 'node:path';
import { setting, type SettingsArea } from '../settings/setting';
import { oneOf, path } from '../settings/setting-types';
import { tenantsType } from './tenants';

export const deploymentSetting = setting({
  env: 'SLOWLANE_ENV',
  type: oneOf(['local', 'production']),
  required: 'always',
  doc: 'no default, so nothing runs as the local stack by accident: `local` (what `npm start` and `npm test` set) gives the loopback endpoints and local S3 credentials; `production` also requires `ANTHROPIC_API_KEY`',
});

export const tenantsSetting = setting({
  env: 'SLOWLANE_TENANTS',
  type: tenantsType,
  required: 'always',
  doc: "the API's tenants with their credentials (the local stack generates its own, in `.data/local-secrets.json`); `defaultCallbackUrl` receives webhooks for jobs submitted without a `callbackUrl`",
});

export const deploymentArea = {
  title: 'Deployment and tenants',
  settings: {
    deployment: deploymentSetting,
    tenants: tenantsSetting,
    logLevel: setting({
      env: 'LOG_LEVEL',
      type: oneOf(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']),
      default: 'info',
      doc: 'the least severe log line written',
    }),
    dataDir: setting({
      env: 'SLOWLANE_DATA_DIR',
      type: path(),
      default: '.data',
      doc: 'local stack state: Temporal SQLite file, S3 files, ledger, logs, samples',
    }),
    cacheHome: setting({
      env: 'XDG_CACHE_HOME',
      type: path(),
      default: join(homedir(), '.cache'),
      defaultDoc: '`~/.cache`',
      doc: 'base of the tool cache',
    }),
    toolCacheDir: setting({
      env: 'SLOWLANE_TOOL_CACHE',
      type: path(),
      defaultDoc: '`$XDG_CACHE_HOME/slowlane`',
      doc: 'where the Temporal CLI and versitygw are built',
    }),
  },
} satisfies SettingsArea;
