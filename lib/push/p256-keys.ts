import { createECDH, createPublicKey } from 'node:crypto';

/** An uncompressed P-256 point (0x04 ‖ X ‖ Y): a VAPID public key and a subscription's `p256dh` (RFC 8291 §3.1). */
export const P256_PUBLIC_KEY_BYTES = 65;
/** A VAPID private key: the P-256 scalar. */
export const P256_PRIVATE_KEY_BYTES = 32;
/** A subscription's `auth` secret (RFC 8291 §3.2). */
export const AUTH_SECRET_BYTES = 16;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The bytes of base64url text (padding tolerated, as browsers' `toJSON()` never pads but some clients do). */
export function base64urlBytes(text: string): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined;
  return Buffer.from(text.replace(/=+$/, ''), 'base64url');
}

/**
 * Why `text` is not a P-256 public key in uncompressed form, or undefined when it is one. The point is checked to lie
 * on the curve (a key off it would make every encryption to it fail at the worker, attempt after attempt).
 */
export function p256PublicKeyProblem(text: string): string | undefined {
  const bytes = base64urlBytes(text);
  if (!bytes) return 'must be base64url';
  if (bytes.length !== P256_PUBLIC_KEY_BYTES || bytes[0] !== 0x04) {
    return `must be an uncompressed P-256 point: ${P256_PUBLIC_KEY_BYTES} bytes starting 0x04 (got ${bytes.length} bytes)`;
  }
  try {
    createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: bytes.subarray(1, 33).toString('base64url'), y: bytes.subarray(33).toString('base64url') },
      format: 'jwk',
    });
  } catch {
    return 'is not a point on the P-256 curve';
  }
  return undefined;
}

/** Why `text` is not a 16-byte auth secret, or undefined. */
export function authSecretProblem(text: string): string | undefined {
  const bytes = base64urlBytes(text);
  if (!bytes) return 'must be base64url';
  return bytes.length === AUTH_SECRET_BYTES ? undefined : `must be ${AUTH_SECRET_BYTES} bytes (got ${bytes.length})`;
}

/** Whether the private key is the public key's: a mismatched pair signs JWTs every push service refuses. */
export function isKeyPair(publicKey: string, privateKey: string): boolean {
  const priv = base64urlBytes(privateKey);
  const pub = base64urlBytes(publicKey);
  if (!priv || !pub || priv.length !== P256_PRIVATE_KEY_BYTES) return false;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(priv);
    return ecdh.getPublicKey().equals(pub);
  } catch {
    return false;
  }
}
