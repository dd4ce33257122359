import type { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
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
  ensureBucket(): Promise<void>;
}

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
};
