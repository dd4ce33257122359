import { setting, type SettingsArea } from '../settings/setting';
import { codecKeys } from '../payload-codec/codec-keys-setting';
import { bool, int, secret, text, url } from '../settings/setting-types';

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
    fairnessKeys: setting({
      env: 'TEMPORAL_FAIRNESS_KEYS',
      type: bool(),
      default: 'true',
      doc: "jobs carry their tenant as Temporal's fairness key and its `fairnessWeight`, so inside a priority tenants share a queue by weight (needs `matching.enableFairness` on the server); `off`: first in, first out across tenants (the fairness benchmark's naive side)",
    }),
    payloadCodecKeys: setting({
      env: 'PAYLOAD_CODEC_KEYS',
      type: codecKeys(),
      required: 'production',
      defaultDoc:
        '`npm start`/`npm test`: a key generated once in the data folder; unset elsewhere in local mode: plaintext payloads',
      doc: 'AES-256-GCM keys of the payload codec by id (`{"k2026-12":"<base64 of 32 bytes>"}`); keep retired keys here so old histories still decrypt (docs/operations.md#payload-encryption)',
    }),
    payloadCodecKeyId: setting({
      env: 'PAYLOAD_CODEC_KEY_ID',
      type: text(),
      defaultDoc: 'the only key of `PAYLOAD_CODEC_KEYS`',
      doc: 'the key new payloads are encrypted with; required when `PAYLOAD_CODEC_KEYS` holds several',
    }),
    payloadCodecAcceptPlaintext: setting({
      env: 'PAYLOAD_CODEC_ACCEPT_PLAINTEXT',
      type: bool(),
      default: 'false',
      doc: 'decode payloads that carry no encryption as they are, so histories written before encryption still read: only for a migration window, since any client of the namespace can send a plaintext signal or Update (docs/security.md#payload-encryption-and-authenticity)',
    }),
    payloadCodecKeyWarnEncryptions: setting({
      env: 'PAYLOAD_CODEC_KEY_WARN_ENCRYPTIONS',
      type: int({ min: 1 }),
      default: String(2 ** 30),
      doc: 'a process warns once when it alone has encrypted this many payloads under one key; the alert rule `SlowlanePayloadKeyOverused` sums all processes against the same figure, a quarter of AES-GCM\'s 2^32 per key (docs/security.md#key-rotation)',
    }),
  },
} satisfies SettingsArea;
