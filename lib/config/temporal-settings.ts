import { setting, type SettingsArea } from '../settings/setting';
import { bool, secret, text, url } from '../settings/setting-types';

export const temporalArea = {
  title: 'Temporal',
  settings: {
    address: setting({
      env: 'TEMPORAL_ADDRESS',
      type: text(),
      default: '127.0.0.1:7233',
      doc: "Temporal frontend, `host:port` (`npm start` serves the dev server on `temporal-dev.yaml`'s `port` unless this is set)",
    }),
    namespace: setting({ env: 'TEMPORAL_NAMESPACE', type: text(), default: 'slowlane', doc: 'namespace' }),
    apiKey: setting({ env: 'TEMPORAL_API_KEY', type: secret(), doc: 'API key (Temporal Cloud); turns TLS on' }),
    tls: setting({ env: 'TEMPORAL_TLS', type: bool(), default: 'false', doc: 'TLS without an API key' }),
    webUiUrl: setting({
      env: 'TEMPORAL_WEB_UI_URL',
      type: url(),
      default: 'http://127.0.0.1:8233',
      doc: "for links from jobs to their workflow (`npm start`: `temporal-dev.yaml`'s `ui.port` unless set)",
    }),
    taskQueuePrefix: setting({
      env: 'TASK_QUEUE_PREFIX',
      type: text(),
      default: 'slowlane',
      doc: 'task queues are `<prefix>-interactive` and `<prefix>-bulk`',
    }),
  },
} satisfies SettingsArea;
