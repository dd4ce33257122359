import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { StoredObjectUnreadableError } from '../common/errors';
import type { Config } from './config';
import { isSealed, MAGIC_BYTES, open, seal, sealedLength } from './object-envelope';
import { keyProviderFor } from './payload-codec/data-converter';
import type { KeyProvider } from './payload-codec/key-provider';
import { processKeyUsage } from './payload-codec/key-usage';

/**
 * The few object-store operations Slowlane needs, over any S3-compatible service. With the product's encryption
 * (OBJECT_STORE_ENCRYPTION=product) every object is sealed on put and opened on read (lib/object-envelope.ts), so
 * callers see plaintext and the bucket never does.
 */
export interface ObjectStore {
  readonly bucket: string;
  put(key: string, body: Buffer | string | Readable, options: { contentType: string; contentLength?: number }): Promise<void>;
  getBytes(key: string): Promise<Buffer>;
  /** Streams an object (the reviewer page shows uploaded documents without the API buffering them). */
  open(key: string): Promise<StoredObject>;
  exists(key: string): Promise<boolean>;
  /** The keys under a prefix in key order, a page at a time; from the first key after `startAfter` when given. */
  list(prefix: string, options?: { startAfter?: string }): AsyncIterable<string>;
  /** Deletes the keys that exist (a missing key is no error), up to a thousand a request. */
  deleteMany(keys: readonly string[]): Promise<void>;
  ensureBucket(): Promise<void>;
}

/** A JSON record, or undefined when there is none under `key` (a step's mark, a record not yet written). */
export async function readJsonIfPresent<T>(store: Pick<ObjectStore, 'exists' | 'getBytes'>, key: string): Promise<T | undefined> {
  return (await store.exists(key)) ? (JSON.parse((await store.getBytes(key)).toString('utf8')) as T) : undefined;
}

/** S3's most keys per DeleteObjects request. */
const DELETE_PAGE = 1_000;

export interface StoredObject {
  body: Readable;
  contentType?: string;
  contentLength?: number;
}

export function createS3Client(config: Pick<Config['s3'], 'region' | 'endpoint' | 'forcePathStyle' | 'accessKeyId' | 'secretAccessKey'>): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId && config.secretAccessKey
      ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey.reveal() } }
      : {}),
  });
}

/** What the store needs of the configuration: the bucket, and the codec keys it seals objects under. */
export type ObjectStoreConfig = Pick<Config, 's3'> & { temporal: Pick<Config['temporal'], 'payloadCodecKeys' | 'payloadCodecKeyId' | 'payloadCodecAcceptPlaintext'> };

export function createObjectStore(config: ObjectStoreConfig, client: S3Client = createS3Client(config.s3)): ObjectStore {
  const bucket = config.s3.bucket;
  const sealing = sealingOf(config);
  const get = async (key: string) => {
    const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    if (!response.Body) throw new Error(`s3://${bucket}/${key} has no body`);
    const stored: StoredObject = {
      body: response.Body as Readable,
      ...(response.ContentType ? { contentType: response.ContentType } : {}),
      ...(response.ContentLength !== undefined ? { contentLength: response.ContentLength } : {}),
    };
    return sealing ? openSealed(stored, key, sealing) : stored;
  };
  return {
    bucket,
    async put(key, body, { contentType, contentLength }) {
      const sealed = sealing ? await sealBody(key, body, contentLength, sealing) : { body, contentLength };
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: sealed.body,
          ContentType: contentType,
          ...(sealed.contentLength !== undefined ? { ContentLength: sealed.contentLength } : {}),
        }),
      );
    },
    async getBytes(key) {
      return collect((await get(key)).body);
    },
    open: get,
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return true;
      } catch (error) {
        if (error instanceof NotFound || error instanceof NoSuchKey) return false;
        throw error;
      }
    },
    async *list(prefix, options = {}) {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            ...(token ? { ContinuationToken: token } : options.startAfter ? { StartAfter: options.startAfter } : {}),
          }),
        );
        for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async deleteMany(keys) {
      for (let start = 0; start < keys.length; start += DELETE_PAGE) {
        const objects = keys.slice(start, start + DELETE_PAGE).map((key) => ({ Key: key }));
        const reply = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }));
        const failed = (reply.Errors ?? []).filter((error) => error.Code !== 'NoSuchKey');
        if (failed.length > 0) throw new Error(`s3://${bucket}: ${failed.length} objects could not be deleted (${failed[0]?.Code})`);
      }
    },
    ensureBucket: () => ensureBucket(client, bucket),
  };
}

/** Creates the bucket unless it exists (the local stack, before any process has keys to hand). */
export async function ensureBucket(client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  }
}

interface Sealing {
  keys: KeyProvider;
  acceptPlaintext: boolean;
}

/** The product's sealing, or undefined where objects are stored as they are (server-side encryption, local `none`). */
function sealingOf(config: ObjectStoreConfig): Sealing | undefined {
  if (config.s3.encryption !== 'product') return undefined;
  const keys = keyProviderFor(config.temporal);
  // loadConfig refuses `product` without keys; a hand-built config that gets here must not store plaintext instead.
  if (!keys) throw new Error('OBJECT_STORE_ENCRYPTION=product needs PAYLOAD_CODEC_KEYS');
  return { keys, acceptPlaintext: config.s3.acceptPlaintext };
}

async function sealBody(key: string, body: Buffer | string | Readable, contentLength: number | undefined, sealing: Sealing) {
  const options = { keys: sealing.keys, onWrap: (keyId: string) => processKeyUsage.record(keyId, 1) };
  if (body instanceof Readable && contentLength !== undefined) {
    // Streamed as it is sealed: the upload's length is known from the plaintext's, so nothing is buffered.
    return {
      body: Readable.from(seal(body, key, options), { objectMode: false }),
      contentLength: sealedLength(contentLength, sealing.keys.currentKeyId),
    };
  }
  const sealed = await collect(seal(body instanceof Readable ? body : Readable.from([body]), key, options));
  return { body: sealed, contentLength: sealed.length };
}

/** A stored object as its plaintext; one stored before sealing existed only in a migration window. */
async function openSealed(stored: StoredObject, key: string, sealing: Sealing): Promise<StoredObject> {
  const rest = (stored.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let start = Buffer.alloc(0);
  while (start.length < MAGIC_BYTES) {
    const next = await rest.next();
    if (next.done) break;
    start = Buffer.concat([start, next.value]);
  }
  const contentType = stored.contentType !== undefined ? { contentType: stored.contentType } : {};
  if (isSealed(start)) {
    const opened = await open(start, rest, key, sealing.keys, stored.contentLength);
    return { body: Readable.from(opened.body, { objectMode: false }), ...contentType, ...(opened.contentLength !== undefined ? { contentLength: opened.contentLength } : {}) };
  }
  if (!sealing.acceptPlaintext) {
    await rest.return?.();
    throw new StoredObjectUnreadableError(
      `${key} is stored unencrypted and is refused: only objects sealed by the product are read (OBJECT_STORE_ACCEPT_PLAINTEXT=true for a migration window)`,
    );
  }
  return { ...stored, body: Readable.from(prepend(start, rest), { objectMode: false }) };
}

async function* prepend(start: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (start.length > 0) yield start;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of source) pieces.push(piece);
  return Buffer.concat(pieces);
}

/** Content-addressed keys: a retried upload rewrites the same object instead of leaving an orphan. */
export const objectKeys = {
  input: (tenantId: string, sha256: string): string => `inputs/${tenantId}/${sha256}`,
  text: (tenantId: string, sha256: string): string => `texts/${tenantId}/${sha256}.txt`,
  /** An erased job's runs while Temporal deletes them (lib/erasure/erasure-marks.ts); named by a hash of the job id. */
  erasureMark: (tenantId: string, jobIdSha256: string): string => `erasures/${tenantId}/${jobIdSha256}.json`,
};
