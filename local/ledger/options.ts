import { readSettings } from '../../lib/settings/read-settings';
import { setting, type SettingsArea, type SettingValues } from '../../lib/settings/setting';
import { fromEnv, fromOptions, type Env } from '../../lib/settings/setting-sources';
import { int, path } from '../../lib/settings/setting-types';
import { loopbackHost } from '../stack/loopback-host-setting';

/** Everything the ledger stand-in can be configured with, read by the same reader as the product's config. */
export const ledgerStandInArea = {
  title: 'Ledger stand-in (local/ledger)',
  settings: {
    host: setting({
      env: 'LEDGER_HOST',
      type: loopbackHost,
      default: '127.0.0.1',
      doc: 'where it listens; loopback only',
    }),
    port: setting({
      env: 'LEDGER_PORT',
      type: int({ min: 0, max: 65535 }),
      default: '8789',
      doc: 'its port (`0` = any free port)',
    }),
    dataDir: setting({
      env: 'LEDGER_DATA_DIR',
      type: path(),
      default: '.data/ledger',
      doc: 'holds the append-only journal; relative to the current directory',
    }),
  },
} satisfies SettingsArea;

export type LedgerOptions = SettingValues<typeof ledgerStandInArea.settings>;

/** Explicit options win over the environment, which wins over the defaults; all are validated alike. */
export function resolveLedgerOptions(options: Partial<LedgerOptions> = {}, env: Env = process.env): LedgerOptions {
  return readSettings(ledgerStandInArea.settings, [fromEnv(env), fromOptions(options)]);
}
