import { setting, type SettingsArea } from '../settings/setting';
import { secret, url } from '../settings/setting-types';

export const cliArea = {
  title: 'Command-line client',
  settings: {
    apiUrl: setting({
      env: 'SLOWLANE_API_URL',
      type: url(),
      defaultDoc: '`API_PUBLIC_URL`',
      doc: 'the API the `slowlane` CLI sends requests to',
    }),
    apiKey: setting({
      env: 'SLOWLANE_API_KEY',
      type: secret(),
      defaultDoc: "none (`npm start` prints the local one)",
      doc: "the `slowlane` CLI's API key",
    }),
  },
} satisfies SettingsArea;
