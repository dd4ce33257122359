import assert from '../support/assert';
import { Readable } from 'node:stream';
import { describe, test } from '@jest/globals';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { createObjectStore } from '../../lib/object-store';
import { processKeyUsage } from '../../lib/payload-codec/key-usage';
import { localTestConfig, RECORDED_TEST_KEYS } from '../support/test-credentials';

const KEY_ID = Object.keys(RECORDED_TEST_KEYS)[0] as string;
const SECRET_TEXT = 'Kontoinhaber Erika Mustermann, IBAN DE89 3704 0044 0532 0130 00';

/** An S3 bucket as a map behind the client's `send`: what the store writes is what a raw read of the bucket sees. */
function bucketClient(): { client: S3Client; raw: Map<string, Buffer> } {
  const raw = new Map<string, Buffer>();
  const send = async (command: unknown) => {
    if (command instanceof PutObjectCommand) {
      const body = command.input.Body;
      const bytes = body instanceof Readable ? await collect(body) : Buffer.from(body as Buffer | string);
      if (command.input.ContentLength !== undefined) assert.equal(command.input.ContentLength, bytes.length, 'the declared upload length is the sealed length');
      raw.set(command.input.Key as string, bytes);
      return {};
    }
    if (command instanceof GetObjectCommand) {
      const bytes = raw.get(command.input.Key as string);
      if (!bytes) throw Object.assign(new Error('NoSuchKey'), { name: 'NoSuchKey' });
      // Served in uneven pieces, as a socket would.
      const pieces = [bytes.subarray(0, 3), bytes.subarray(3, 100), bytes.subarray(100)].filter((piece) => piece.length > 0);
      return { Body: Readable.from(pieces), ContentLength: bytes.length, ContentType: 'application/pdf' };
    }
    if (command instanceof HeadObjectCommand) return {};
    throw new Error(`unexpected command ${String(command)}`);
  };
  return { client: { send } as unknown as S3Client, raw };
}

async function collect(source: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of source) pieces.push(Buffer.from(piece));
  return Buffer.concat(pieces);
}

describe('the object store with OBJECT_STORE_ENCRYPTION=product', () => {
  const product = localTestConfig({ OBJECT_STORE_ENCRYPTION: 'product' });

  test('when an upload is streamed in, then the bucket holds no plaintext, and open streams it back with its own length', async () => {
    const { client, raw } = bucketClient();
    const store = createObjectStore(product, client);
    const plain = Buffer.from(`${SECRET_TEXT}\n`.repeat(5_000));
    await store.put('inputs/demo/abc', Readable.from([plain.subarray(0, 70_000), plain.subarray(70_000)]), {
      contentType: 'application/pdf',
      contentLength: plain.length,
    });
    const stored = raw.get('inputs/demo/abc') as Buffer;
    assert.ok(stored.length > plain.length);
    assert.ok(!stored.includes('Mustermann'), 'the stored bytes hide the upload');
    const opened = await store.open('inputs/demo/abc');
    assert.equal(opened.contentLength, plain.length);
    assert.equal(opened.contentType, 'application/pdf');
    assert.ok((await collect(opened.body)).equals(plain));
  });

  test('when a string or buffer is put, then getBytes gives it back, and each object counts one encryption of the key', async () => {
    const { client, raw } = bucketClient();
    const store = createObjectStore(product, client);
    const before = processKeyUsage.count(KEY_ID);
    await store.put('texts/demo/abc.txt', SECRET_TEXT, { contentType: 'text/plain' });
    await store.put('texts/demo/empty.txt', '', { contentType: 'text/plain' });
    assert.equal(processKeyUsage.count(KEY_ID) - before, 2);
    assert.ok(!(raw.get('texts/demo/abc.txt') as Buffer).includes('IBAN'));
    assert.equal((await store.getBytes('texts/demo/abc.txt')).toString(), SECRET_TEXT);
    assert.equal((await store.getBytes('texts/demo/empty.txt')).length, 0);
  });

  test('when an object was stored before encryption, then it is refused, and read as it is only in a migration window', async () => {
    const { client, raw } = bucketClient();
    raw.set('inputs/demo/old', Buffer.from(SECRET_TEXT));
    raw.set('texts/demo/old-empty.txt', Buffer.alloc(0));
    const store = createObjectStore(product, client);
    await assert.rejects(store.getBytes('inputs/demo/old'), (error: Error) => {
      assert.equal(error.name, 'StoredObjectUnreadableError');
      assert.match(error.message, /stored unencrypted and is refused.*OBJECT_STORE_ACCEPT_PLAINTEXT/);
      return true;
    });
    await assert.rejects(store.getBytes('texts/demo/old-empty.txt'), /stored unencrypted/);
    const migrating = createObjectStore(localTestConfig({ OBJECT_STORE_ENCRYPTION: 'product', OBJECT_STORE_ACCEPT_PLAINTEXT: 'true' }), client);
    assert.equal((await migrating.getBytes('inputs/demo/old')).toString(), SECRET_TEXT);
    const opened = await migrating.open('inputs/demo/old');
    assert.equal(opened.contentLength, SECRET_TEXT.length);
    assert.equal((await collect(opened.body)).toString(), SECRET_TEXT);
  });

  test('when the store encrypts server-side, then the product stores the bytes as given', async () => {
    const { client, raw } = bucketClient();
    const store = createObjectStore(localTestConfig({ OBJECT_STORE_ENCRYPTION: 'server-side' }), client);
    await store.put('texts/demo/abc.txt', SECRET_TEXT, { contentType: 'text/plain' });
    assert.equal((raw.get('texts/demo/abc.txt') as Buffer).toString(), SECRET_TEXT);
  });
});
