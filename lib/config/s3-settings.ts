import { setting, type SettingsArea } from '../settings/setting';
import { bool, secret, text, url } from '../settings/setting-types';

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
  },
} satisfies SettingsArea;
