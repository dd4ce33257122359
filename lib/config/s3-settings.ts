import { setting, type SettingsArea } from '../settings/setting';
import { bool, oneOf, secret, text, url } from '../settings/setting-types';

/** Who encrypts what the product puts in the bucket; `none` only in local mode. */
export const OBJECT_ENCRYPTIONS = ['product', 'server-side', 'none'] as const;
export type ObjectEncryption = (typeof OBJECT_ENCRYPTIONS)[number];

export const s3Area = {
  title: 'S3',
  settings: {
    endpoint: setting({
      env: 'S3_ENDPOINT',
      type: url(),
      localDefault: 'http://127.0.0.1:7070',
      doc: 'S3-compatible endpoint; unset, AWS S3 of `S3_REGION`',
    }),
    region: setting({ env: 'S3_REGION', type: text(), default: 'us-east-1', doc: 'region' }),
    bucket: setting({
      env: 'S3_BUCKET',
      type: text(),
      default: 'slowlane',
      doc: 'bucket for inputs and extracted text',
    }),
    accessKeyId: setting({
      env: 'S3_ACCESS_KEY_ID',
      type: text(),
      localDefault: 'slowlane',
      doc: 'access key id; unset outside the local stack, the AWS default credential chain',
    }),
    secretAccessKey: setting({
      env: 'S3_SECRET_ACCESS_KEY',
      type: secret(),
      localDefault: 'slowlane-local-secret',
      doc: 'secret access key; unset outside the local stack, the AWS default credential chain',
    }),
    forcePathStyle: setting({
      env: 'S3_FORCE_PATH_STYLE',
      type: bool(),
      default: 'false',
      localDefault: 'true',
      doc: 'path-style addressing (`<endpoint>/<bucket>/<key>`), which S3-compatible servers usually need',
    }),
    encryption: setting({
      env: 'OBJECT_STORE_ENCRYPTION',
      type: oneOf(OBJECT_ENCRYPTIONS),
      defaultDoc: '`product`; in local mode without `PAYLOAD_CODEC_KEYS`, `none`',
      doc: '`product`: every object is sealed before upload with its own data key, wrapped by the current key of `PAYLOAD_CODEC_KEYS`; `server-side`: the deployment declares that the bucket encrypts every object itself (default SSE-KMS, uploads without it denied); `none` is refused in production (docs/security.md#objects-at-rest)',
    }),
    acceptPlaintext: setting({
      env: 'OBJECT_STORE_ACCEPT_PLAINTEXT',
      type: bool(),
      default: 'false',
      doc: 'with `OBJECT_STORE_ENCRYPTION=product`, read objects stored before it as they are: only for a migration window, since anyone who can write to the bucket can then plant an object the product trusts (docs/security.md#objects-at-rest)',
    }),
  },
} satisfies SettingsArea;
