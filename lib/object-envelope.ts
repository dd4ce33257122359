import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { StoredObjectKeyMissingError, StoredObjectUnreadableError } from '../common/errors';
import type { KeyProvider } from './payload-codec/key-provider';

/**
 * How an object is sealed before it reaches the store (docs/security.md#objects-at-rest):
 *
 *   header = MAGIC | keyIdLength (1) | keyId | chunkBytes (u32) | wrapIv (12) | wrapped data key (32) | wrapTag (16)
 *   body   = chunk 0 | chunk 1 | … | final chunk,   each = AES-256-GCM(data key, plaintext slice) | tag (16)
 *
 * Every object gets its own random data key, wrapped by the codec key named in the header (the object's S3 key is
 * part of the wrap's associated data, so a sealed object copied under another key does not open). One wrap spends
 * one of the codec key's random-nonce budget, whatever the object's size. Chunks need no random nonces: their key
 * is used for this object alone, so a nonce is the chunk's index and a final-chunk flag (the STREAM construction).
 * A chunk moved, dropped or cut off fails its tag; a stream that stops before a chunk flagged final is cut short.
 */
const MAGIC = Buffer.from('SLOE\x01', 'latin1');
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const DATA_KEY_BYTES = 32;
const WRAP_BYTES = IV_BYTES + DATA_KEY_BYTES + TAG_BYTES;
/** Big enough that the tags cost 0.02 %, small enough that a reader holds one chunk, not the file. */
export const CHUNK_BYTES = 64 * 1024;

export interface SealOptions {
  keys: KeyProvider;
  /** Told of each data key wrapped under a codec key, so the key's nonce budget counts objects too. */
  onWrap?: (keyId: string) => void;
  chunkBytes?: number;
}

interface Header {
  bytes: Buffer;
  keyId: string;
  chunkBytes: number;
  dataKey: KeyObject;
}

export function isSealed(start: Buffer): boolean {
  return start.length >= MAGIC.length && start.subarray(0, MAGIC.length).equals(MAGIC);
}

/** Enough leading bytes to tell a sealed object from a plaintext one. */
export const MAGIC_BYTES = MAGIC.length;

/** The sealed size of `plainLength` bytes, so a stream can be uploaded with its length known in advance. */
export function sealedLength(plainLength: number, keyId: string, chunkBytes = CHUNK_BYTES): number {
  const chunks = Math.max(1, Math.ceil(plainLength / chunkBytes));
  return headerLength(keyId) + plainLength + chunks * TAG_BYTES;
}

/** The plaintext size of a sealed object of `sealedBytes` whose header was `headerBytes` long. */
function openedLength(sealedBytes: number, headerBytes: number, chunkBytes: number): number {
  const body = sealedBytes - headerBytes;
  const chunks = Math.max(1, Math.ceil(body / (chunkBytes + TAG_BYTES)));
  return body - chunks * TAG_BYTES;
}

function headerLength(keyId: string): number {
  return MAGIC.length + 1 + Buffer.byteLength(keyId) + 4 + WRAP_BYTES;
}

async function newHeader(objectKey: string, options: SealOptions): Promise<Header> {
  const keyId = options.keys.currentKeyId;
  const codecKey = await options.keys.keyFor(keyId);
  if (!codecKey) throw new StoredObjectKeyMissingError(`the current key ${keyId} is not configured`);
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const prefix = Buffer.concat([MAGIC, Buffer.from([Buffer.byteLength(keyId)]), Buffer.from(keyId), u32(chunkBytes)]);
  const dataKeyBytes = randomBytes(DATA_KEY_BYTES);
  const iv = randomBytes(IV_BYTES);
  const wrap = createCipheriv(ALGORITHM, codecKey, iv).setAAD(wrapAad(prefix, objectKey));
  const wrapped = Buffer.concat([wrap.update(dataKeyBytes), wrap.final()]);
  options.onWrap?.(keyId);
  const bytes = Buffer.concat([prefix, iv, wrapped, wrap.getAuthTag()]);
  return { bytes, keyId, chunkBytes, dataKey: createSecretKey(dataKeyBytes) };
}

/** The header at the start of `bytes`, or undefined while more bytes are needed to read it. */
async function readHeader(bytes: Buffer, objectKey: string, keys: KeyProvider): Promise<Header | undefined> {
  const idLength = bytes[MAGIC.length];
  if (idLength === undefined) return undefined;
  const idEnd = MAGIC.length + 1 + idLength;
  const end = idEnd + 4 + WRAP_BYTES;
  if (bytes.length < end) return undefined;
  const keyId = bytes.subarray(MAGIC.length + 1, idEnd).toString();
  const chunkBytes = bytes.readUInt32BE(idEnd);
  const codecKey = await keys.keyFor(keyId);
  if (!codecKey) {
    throw new StoredObjectKeyMissingError(`${objectKey} is sealed with key ${keyId}, which is not configured: keep retired keys in PAYLOAD_CODEC_KEYS`);
  }
  const prefix = bytes.subarray(0, idEnd + 4);
  const wrap = bytes.subarray(idEnd + 4, end);
  const unwrap = createDecipheriv(ALGORITHM, codecKey, wrap.subarray(0, IV_BYTES)).setAAD(wrapAad(prefix, objectKey));
  unwrap.setAuthTag(wrap.subarray(IV_BYTES + DATA_KEY_BYTES));
  let dataKey: Buffer;
  try {
    dataKey = Buffer.concat([unwrap.update(wrap.subarray(IV_BYTES, IV_BYTES + DATA_KEY_BYTES)), unwrap.final()]);
  } catch {
    throw new StoredObjectUnreadableError(`${objectKey}: its data key (key ${keyId}) failed authentication: altered, moved from another key, or the key is wrong`);
  }
  if (chunkBytes < 1) throw new StoredObjectUnreadableError(`${objectKey}: its header names no chunk size`);
  return { bytes: Buffer.from(bytes.subarray(0, end)), keyId, chunkBytes, dataKey: createSecretKey(dataKey) };
}

/** Seals a plaintext stream chunk by chunk; holds back one chunk, since only the end of input says which is final. */
export async function* seal(source: AsyncIterable<Buffer | string>, objectKey: string, options: SealOptions): AsyncGenerator<Buffer> {
  const header = await newHeader(objectKey, options);
  // The header rides with the first chunk: a streamed upload (aws-chunked) refuses a short piece before the last.
  let lead: Buffer | undefined = header.bytes;
  const withLead = (sealed: Buffer) => {
    const piece = lead ? Buffer.concat([lead, sealed]) : sealed;
    lead = undefined;
    return piece;
  };
  let pending = Buffer.alloc(0);
  let index = 0;
  for await (const piece of source) {
    pending = Buffer.concat([pending, typeof piece === 'string' ? Buffer.from(piece) : piece]);
    while (pending.length > header.chunkBytes) {
      yield withLead(sealChunk(header, index++, pending.subarray(0, header.chunkBytes), false));
      pending = pending.subarray(header.chunkBytes);
    }
  }
  yield withLead(sealChunk(header, index, pending, true));
}

export interface OpenedObject {
  body: AsyncIterable<Buffer>;
  /** The plaintext length, when the sealed length is known. */
  contentLength?: number;
}

/**
 * Opens a sealed stream whose first bytes (`start`, at least the header's) were already read from `rest`. The
 * header is checked before this returns, so a missing key or a moved object fails before any byte is served.
 */
export async function open(start: Buffer, rest: AsyncIterator<Buffer>, objectKey: string, keys: KeyProvider, sealedBytes?: number): Promise<OpenedObject> {
  let buffered = start;
  let header = await readHeader(buffered, objectKey, keys);
  while (!header) {
    const next = await rest.next();
    if (next.done) throw new StoredObjectUnreadableError(`${objectKey}: cut short inside its header`);
    buffered = Buffer.concat([buffered, next.value]);
    header = await readHeader(buffered, objectKey, keys);
  }
  const opened = header;
  return {
    body: openChunks(opened, buffered.subarray(opened.bytes.length), rest, objectKey),
    ...(sealedBytes !== undefined ? { contentLength: openedLength(sealedBytes, opened.bytes.length, opened.chunkBytes) } : {}),
  };
}

async function* openChunks(header: Header, first: Buffer, rest: AsyncIterator<Buffer>, objectKey: string): AsyncGenerator<Buffer> {
  const sealedChunk = header.chunkBytes + TAG_BYTES;
  let pending = first;
  let index = 0;
  try {
    for (;;) {
      // A full chunk with bytes after it is not the last one; the last is known only when the stream ends.
      while (pending.length > sealedChunk) {
        yield openChunk(header, index++, pending.subarray(0, sealedChunk), false, objectKey);
        pending = pending.subarray(sealedChunk);
      }
      const next = await rest.next();
      if (next.done) break;
      pending = Buffer.concat([pending, next.value]);
    }
  } finally {
    // A reader that stops early (a client gone mid-download) releases the store's connection.
    await rest.return?.();
  }
  if (pending.length < TAG_BYTES) throw new StoredObjectUnreadableError(`${objectKey}: cut short after chunk ${index - 1}`);
  yield openChunk(header, index, pending, true, objectKey);
}

function sealChunk(header: Header, index: number, plain: Buffer, final: boolean): Buffer {
  const cipher = createCipheriv(ALGORITHM, header.dataKey, chunkNonce(index, final)).setAAD(header.bytes);
  return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

function openChunk(header: Header, index: number, sealed: Buffer, final: boolean, objectKey: string): Buffer {
  const decipher = createDecipheriv(ALGORITHM, header.dataKey, chunkNonce(index, final)).setAAD(header.bytes);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new StoredObjectUnreadableError(
      `${objectKey}: chunk ${index} failed authentication: altered, reordered, or the object was cut short`,
    );
  }
}

/** Seven zero bytes, the chunk's index, and 1 on the final chunk: a last chunk cannot pass for a middle one. */
function chunkNonce(index: number, final: boolean): Buffer {
  const nonce = Buffer.alloc(IV_BYTES);
  nonce.writeUInt32BE(index, 7);
  nonce[11] = final ? 1 : 0;
  return nonce;
}

function wrapAad(prefix: Buffer, objectKey: string): Buffer {
  return Buffer.concat([prefix, Buffer.from(objectKey)]);
}

function u32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}
