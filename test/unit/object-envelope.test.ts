import assert from '../support/assert';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, test } from '@jest/globals';
import { open, seal, sealedLength } from '../../lib/object-envelope';
import { EnvKeyProvider } from '../../lib/payload-codec/key-provider';
import { Secret } from '../../lib/secret';

const newKey = () => new Secret(randomBytes(32).toString('base64'));
const OBJECT = 'inputs/demo/3f2a';
/** Small chunks, so a few hundred bytes make many of them. */
const CHUNK = 32;

async function collect(source: AsyncIterable<Buffer>): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of source) pieces.push(piece);
  return Buffer.concat(pieces);
}

async function sealed(plain: Buffer, keys: EnvKeyProvider, onWrap?: (keyId: string) => void): Promise<Buffer> {
  return collect(seal(Readable.from([plain]), OBJECT, { keys, chunkBytes: CHUNK, ...(onWrap ? { onWrap } : {}) }));
}

/** Opens `bytes` as the store would hand them over: in pieces of `piece` bytes, so chunks straddle reads. */
async function opened(bytes: Buffer, keys: EnvKeyProvider, objectKey = OBJECT, piece = 7): Promise<{ plain: Buffer; contentLength?: number }> {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += piece) pieces.push(bytes.subarray(at, at + piece));
  const rest = Readable.from(pieces)[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await rest.next();
  const result = await open(first.done ? Buffer.alloc(0) : first.value, rest, objectKey, keys, bytes.length);
  return { plain: await collect(result.body), ...(result.contentLength !== undefined ? { contentLength: result.contentLength } : {}) };
}

const headerBytes = (keyId: string) => sealedLength(0, keyId, CHUNK) - 16;

describe('sealed objects (lib/object-envelope.ts)', () => {
  const k1 = newKey();
  const keys = new EnvKeyProvider({ k1 }, undefined);

  test('when objects of every size around the chunk boundaries are sealed and opened, then each comes back whole with its length', async () => {
    for (const size of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 5, 1000]) {
      const plain = randomBytes(size);
      const bytes = await sealed(plain, keys);
      assert.equal(bytes.length, sealedLength(size, 'k1', CHUNK), `sealed length of ${size} bytes`);
      const back = await opened(bytes, keys);
      assert.ok(back.plain.equals(plain), `${size} bytes round trip`);
      assert.equal(back.contentLength, size, `plaintext length of ${size} bytes read from the sealed length`);
    }
  });

  test('when a distinctive text is sealed, then the sealed bytes do not contain it, and two seals of it differ', async () => {
    const plain = Buffer.from('IBAN DE44 5001 0517 5407 3249 31 — Acme Widgets GmbH, invoice INV-2026-0042'.repeat(4));
    const a = await sealed(plain, keys);
    const b = await sealed(plain, keys);
    for (const needle of ['IBAN', 'Acme', 'INV-2026']) assert.ok(!a.includes(needle), needle);
    assert.ok(!a.subarray(headerBytes('k1')).equals(b.subarray(headerBytes('k1'))), 'a fresh data key per object');
  });

  test('when any single byte of a sealed object is altered, then opening it fails authentication', async () => {
    const bytes = await sealed(randomBytes(2 * CHUNK + 9), keys);
    // Every byte after the key id: the chunk size, the wrapped key, and every chunk and tag.
    for (let at = 5 + 1 + 2; at < bytes.length; at++) {
      const altered = Buffer.from(bytes);
      altered[at] = (altered[at] as number) ^ 0x01;
      await assert.rejects(opened(altered, keys), (error: Error) => {
        assert.equal(error.name, 'StoredObjectUnreadableError', `byte ${at}: ${error.message}`);
        return true;
      });
    }
  });

  test('when a sealed object is cut short anywhere, or has bytes appended, then opening it fails', async () => {
    const bytes = await sealed(randomBytes(3 * CHUNK + 5), keys);
    const sealedChunk = CHUNK + 16;
    const header = headerBytes('k1');
    const cuts = [header + sealedChunk, header + 2 * sealedChunk, header + 3 * sealedChunk, header + 10, bytes.length - 1, header - 3, header];
    for (const cut of cuts) {
      await assert.rejects(opened(bytes.subarray(0, cut), keys), /StoredObjectUnreadableError|failed authentication|cut short/, `cut at ${cut}`);
    }
    await assert.rejects(opened(Buffer.concat([bytes, Buffer.from([0])]), keys), /failed authentication/, 'a byte appended');
  });

  test('when two chunks are swapped, or one is dropped from the middle, then opening fails', async () => {
    const bytes = await sealed(randomBytes(3 * CHUNK + 5), keys);
    const header = headerBytes('k1');
    const sealedChunk = CHUNK + 16;
    const chunk = (index: number) => bytes.subarray(header + index * sealedChunk, header + (index + 1) * sealedChunk);
    const tail = bytes.subarray(header + 3 * sealedChunk);
    const swapped = Buffer.concat([bytes.subarray(0, header), chunk(1), chunk(0), chunk(2), tail]);
    const dropped = Buffer.concat([bytes.subarray(0, header), chunk(0), chunk(2), tail]);
    await assert.rejects(opened(swapped, keys), /chunk 0 failed authentication/);
    await assert.rejects(opened(dropped, keys), /chunk 1 failed authentication/);
  });

  test('when a sealed object is stored under another object key, then it does not open there', async () => {
    const bytes = await sealed(Buffer.from('tenant a'), keys);
    await assert.rejects(opened(bytes, keys, 'inputs/other-tenant/3f2a'), /data key \(key k1\) failed authentication/);
  });

  test('when the key id is the same but the key is not, then opening fails as unreadable, not as a missing key', async () => {
    const bytes = await sealed(Buffer.from('hello'), keys);
    const impostor = new EnvKeyProvider({ k1: newKey() }, undefined);
    await assert.rejects(opened(bytes, impostor), (error: Error) => error.name === 'StoredObjectUnreadableError');
  });

  test('when the key is rotated, then objects sealed under the old key still open, and new ones name the new key', async () => {
    const plain = randomBytes(100);
    const old = await sealed(plain, keys);
    const rotated = new EnvKeyProvider({ k1, k2: newKey() }, 'k2');
    assert.ok((await opened(old, rotated)).plain.equals(plain));
    const fresh = await sealed(plain, rotated);
    assert.equal(fresh.subarray(6, 8).toString(), 'k2');
    assert.ok((await opened(fresh, rotated)).plain.equals(plain));
    const withoutOld = new EnvKeyProvider({ k2: newKey() }, 'k2');
    await assert.rejects(opened(old, withoutOld), (error: Error) => {
      assert.equal(error.name, 'StoredObjectKeyMissingError');
      assert.match(error.message, /sealed with key k1, which is not configured/);
      return true;
    });
  });

  test('when objects of any size are sealed, then each spends one encryption of the codec key, not one per chunk', async () => {
    const wraps: string[] = [];
    await sealed(randomBytes(10 * CHUNK), keys, (keyId) => wraps.push(keyId));
    await sealed(Buffer.alloc(0), keys, (keyId) => wraps.push(keyId));
    assert.deepEqual(wraps, ['k1', 'k1']);
  });
});
