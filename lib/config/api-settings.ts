import { tmpdir } from 'node:os';
import { setting, type SettingsArea } from '../settings/setting';
import { int, path, strongSecret, text, url } from '../settings/setting-types';

export const apiArea = {
  title: 'API',
  settings: {
    host: setting({
      env: 'API_HOST',
      type: text(),
      default: '127.0.0.1',
      doc: 'where the API listens (`0.0.0.0` in a pod)',
    }),
    port: setting({ env: 'API_PORT', type: int({ min: 0, max: 65535 }), default: '3000', doc: "the API's port" }),
    publicUrl: setting({
      env: 'API_PUBLIC_URL',
      type: url(),
      defaultDoc: '`http://127.0.0.1:<API_PORT>`',
      doc: "base of the links in answers and of the OpenAPI document's server",
    }),
    maxUploadBytes: setting({
      env: 'MAX_UPLOAD_BYTES',
      type: int({ min: 1, max: 512 * 1024 * 1024 }),
      default: String(25 * 1024 * 1024),
      doc: "larger uploads are a 413 (the default is 25 MB), for each type that declares no limit of its own (a call's is CALL_MAX_UPLOAD_BYTES)",
    }),
    uploadTmpDir: setting({
      env: 'UPLOAD_TMP_DIR',
      type: path(),
      default: tmpdir(),
      defaultDoc: 'the OS temp dir',
      doc: 'where uploads are spooled while hashed',
    }),
    maxUploadsPerTenant: setting({
      env: 'API_MAX_UPLOADS_PER_TENANT',
      type: int({ min: 1, max: 10_000 }),
      default: '32',
      doc: "uploads one tenant may have in flight on one API process (each is spooled to disk); past it `POST /jobs` is a 429 with `Retry-After`",
    }),
    maxEventStreamsPerTenant: setting({
      env: 'API_MAX_EVENT_STREAMS_PER_TENANT',
      type: int({ min: 1, max: 10_000 }),
      default: '32',
      doc: 'open `GET /jobs/:id/events` streams per tenant on one API process (each polls Temporal); past it a 429 with `Retry-After`',
    }),
    pageTokenSecret: setting({
      env: 'API_PAGE_TOKEN_SECRET',
      type: strongSecret(),
      required: 'always',
      doc: 'keys the HMAC on `GET /jobs` page tokens, so a forged token is a 400 at once and never reaches Temporal, and (through a key derived from it) on WebSocket tokens; the same on every API replica',
    }),
  },
} satisfies SettingsArea;
