import { setting, type SettingsArea } from '../settings/setting';
import { secret, url } from '../settings/setting-types';

export const ledgerArea = {
  title: 'Ledger',
  settings: {
    url: setting({ env: 'LEDGER_URL', type: url(), default: 'http://127.0.0.1:8789', doc: 'the ledger API' }),
    apiKey: setting({ env: 'LEDGER_API_KEY', type: secret(), doc: 'sent as a Bearer token when set' }),
  },
} satisfies SettingsArea;
