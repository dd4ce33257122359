import type { Readable } from 'node:stream';
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
import type { Config } from './config';

/** The few object-store operations Slowlane needs, over any S3-compatible service. */
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

/** S3's most keys per DeleteObjects request. */
const DELETE_PAGE = 1_000;

export interface StoredObject {
  body: Readable;
  contentType?: string;
  contentLength?: number;
}

export function createS3Client(config: Config['s3']): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId && config.secretAccessKey
      ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey.reveal() } }
      : {}),
  });
}

export function createObjectStore(config: Config['s3'], client: S3Client = createS3Client(config)): ObjectStore {
  const bucket = config.bucket;
  return {
    bucket,
    async put(key, body, { contentType, contentLength }) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          ...(contentLength !== undefined ? { ContentLength: contentLength } : {}),
        }),
      );
    },
    async getBytes(key) {
      const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      if (!response.Body) throw new Error(`s3://${bucket}/${key} has no body`);
      return Buffer.from(await response.Body.transformToByteArray());
    },
    async open(key) {
      const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      if (!response.Body) throw new Error(`s3://${bucket}/${key} has no body`);
      return {
        body: response.Body as Readable,
        ...(response.ContentType ? { contentType: response.ContentType } : {}),
        ...(response.ContentLength !== undefined ? { contentLength: response.ContentLength } : {}),
      };
    },
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
    async ensureBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
      }
    },
  };
}

/** Content-addressed keys: a retried upload rewrites the same object instead of leaving an orphan. */
export const objectKeys = {
  input: (tenantId: string, sha256: string): string => `inputs/${tenantId}/${sha256}`,
  text: (tenantId: string, sha256: string): string => `texts/${tenantId}/${sha256}.txt`,
  /** An erased job's runs while Temporal deletes them (api/jobs/erasure-marks.ts); named by a hash of the job id. */
  erasureMark: (tenantId: string, jobIdSha256: string): string => `erasures/${tenantId}/${jobIdSha256}.json`,
};
