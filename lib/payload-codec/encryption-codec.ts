import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { KeyProvider } from './key-provider';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const KEY_ID_METADATA = 'encryption-key-id';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PayloadMessage = temporal.api.common.v1.Payload;
const text = new TextEncoder();
const utf8 = new TextDecoder();

/** A payload that cannot be decrypted: tampered with, cut short, or under a key this process was not given. */
export class PayloadDecryptionError extends Error {
  override readonly name: string = 'PayloadDecryptionError';
}

/**
 * A payload without our encryption where only encrypted ones are accepted. Whoever can reach the namespace can
 * write plaintext (a signal, an Update, a workflow start); only a holder of the key can write ciphertext that
 * authenticates, so refusing plaintext is what makes a decision in a history the product's own.
 */
export class PlaintextPayloadError extends PayloadDecryptionError {
  override readonly name = 'PlaintextPayloadError';
}

export interface EncryptionCodecOptions {
  /** Decode unencrypted payloads as they are (PAYLOAD_CODEC_ACCEPT_PLAINTEXT), for a migration window only. */
  acceptPlaintext: boolean;
  /** Told of every payload encrypted, by key id (lib/payload-codec/key-usage.ts counts them). */
  onEncrypt?: (keyId: string, count: number) => void;
}

/**
 * AES-256-GCM over each whole payload (metadata and data), so the server stores neither the value nor its
 * encoding. The key id travels in the clear beside the ciphertext, and is also the GCM associated data: a payload
 * relabelled with another key id fails like a tampered one. Payloads without our encoding are refused, unless
 * the options accept them (histories written before encryption).
 */
export class EncryptionCodec implements PayloadCodec {
  constructor(
    private readonly keys: KeyProvider,
    private readonly options: EncryptionCodecOptions,
  ) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const keyId = this.keys.currentKeyId;
    const key = await this.keys.keyFor(keyId);
    if (!key) throw new PayloadDecryptionError(`the current payload key ${keyId} is not configured`);
    if (payloads.length > 0) this.options.onEncrypt?.(keyId, payloads.length);
    return payloads.map((payload) => {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, key, iv).setAAD(text.encode(keyId));
      const plain = PayloadMessage.encode(payload).finish();
      const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return { metadata: { encoding: text.encode(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: text.encode(keyId) }, data };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(payloads.map((payload) => this.decodeOne(payload)));
  }

  private async decodeOne(payload: Payload): Promise<Payload> {
    if (!isEncrypted(payload)) {
      if (this.options.acceptPlaintext) return payload;
      const encoding = utf8.decode(payload.metadata?.encoding ?? new Uint8Array());
      throw new PlaintextPayloadError(
        `a payload is not encrypted (encoding ${encoding || 'none'}) and is refused: only payloads written with a key of PAYLOAD_CODEC_KEYS are accepted (PAYLOAD_CODEC_ACCEPT_PLAINTEXT=true for a migration window)`,
      );
    }
    const keyIdBytes = payload.metadata?.[KEY_ID_METADATA];
    if (!keyIdBytes) throw new PayloadDecryptionError(`an encrypted payload carries no ${KEY_ID_METADATA}`);
    const keyId = utf8.decode(keyIdBytes);
    const key = await this.keys.keyFor(keyId);
    if (!key) {
      throw new PayloadDecryptionError(
        `a payload is encrypted with key ${keyId}, which is not configured: add it to PAYLOAD_CODEC_KEYS (old keys stay there after a rotation)`,
      );
    }
    const data = payload.data ?? new Uint8Array();
    if (data.length < IV_BYTES + TAG_BYTES) throw new PayloadDecryptionError(`an encrypted payload (key ${keyId}) is cut short`);
    const decipher = createDecipheriv(ALGORITHM, key, data.subarray(0, IV_BYTES)).setAAD(keyIdBytes);
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    let plain: Buffer;
    try {
      plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new PayloadDecryptionError(`an encrypted payload (key ${keyId}) failed authentication: it was altered or the key is wrong`);
    }
    return PayloadMessage.decode(plain);
  }
}

export function isEncrypted(payload: Payload): boolean {
  const encoding = payload.metadata?.encoding;
  return encoding !== undefined && encoding !== null && utf8.decode(encoding) === ENCRYPTED_ENCODING;
}
