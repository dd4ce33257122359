import { createDecipheriv, createECDH, hkdfSync } from 'node:crypto';

/** What a subscriber (a browser) keeps to read its pushes: its P-256 private key and public key, and the auth secret. */
export interface SubscriberKeys {
  privateKey: Buffer;
  publicKey: Buffer;
  auth: Buffer;
}

const TAG_BYTES = 16;
const KEY_INFO = Buffer.from('WebPush: info\0');

/**
 * Reads a push as a browser does: the aes128gcm content coding (RFC 8188) keyed by Web Push's ECDH and auth secret
 * derivation (RFC 8291 §3.3-3.4). Written from the RFCs with node:crypto alone, so it checks web-push's encryption
 * rather than repeating it. Throws on anything a browser would drop.
 */
export function decryptAes128gcm(body: Buffer, keys: SubscriberKeys): Buffer {
  if (body.length < 21) throw new Error('shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const senderPublicKey = body.subarray(21, 21 + idLength);
  if (idLength !== 65 || senderPublicKey[0] !== 0x04) throw new Error('the key id is not the sender’s P-256 public key (RFC 8291 §4)');
  if (recordSize < TAG_BYTES + 2) throw new Error(`record size ${recordSize} is too small`);

  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(keys.privateKey);
  const sharedSecret = ecdh.computeSecret(senderPublicKey);
  const ikm = Buffer.from(hkdfSync('sha256', sharedSecret, keys.auth, Buffer.concat([KEY_INFO, keys.publicKey, senderPublicKey]), 32));
  const contentKey = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const baseNonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));

  const records = body.subarray(21 + idLength);
  const plaintext: Buffer[] = [];
  for (let start = 0, seq = 0; start < records.length; start += recordSize, seq++) {
    const record = records.subarray(start, start + recordSize);
    const nonce = Buffer.from(baseNonce);
    // The record's sequence number is XORed into the nonce's end (RFC 8188 §2.3); JS bit operators take 32 bits.
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce);
    decipher.setAuthTag(record.subarray(record.length - TAG_BYTES));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - TAG_BYTES)), decipher.final()]);
    const last = start + recordSize >= records.length;
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    const delimiter = padded[end];
    if (delimiter !== (last ? 2 : 1)) throw new Error(`record ${seq} has delimiter ${delimiter}, not ${last ? 2 : 1}`);
    plaintext.push(padded.subarray(0, end));
  }
  return Buffer.concat(plaintext);
}
