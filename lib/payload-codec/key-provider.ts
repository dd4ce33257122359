import { createSecretKey, type KeyObject } from 'node:crypto';
import { ConfigError } from '../settings/config-error';
import type { CodecKeys } from './codec-keys-setting';

/**
 * Where the codec's keys come from. The environment implementation below holds them in memory; a KMS adapter
 * (AWS KMS, GCP KMS, Vault transit) implements the same two calls, unwrapping data keys on first use and caching
 * them, so the codec never knows which one it has.
 */
export interface KeyProvider {
  /** The key new payloads are encrypted with. */
  readonly currentKeyId: string;
  /** The key with this id, or undefined when it is not (or no longer) configured. */
  keyFor(keyId: string): Promise<KeyObject | undefined>;
}

/** PAYLOAD_CODEC_KEYS and PAYLOAD_CODEC_KEY_ID (lib/config/temporal-settings.ts). */
export class EnvKeyProvider implements KeyProvider {
  readonly currentKeyId: string;
  readonly #keys: Map<string, KeyObject>;

  constructor(keys: CodecKeys, currentKeyId: string | undefined) {
    this.#keys = new Map(Object.entries(keys).map(([id, key]) => [id, createSecretKey(Buffer.from(key.reveal(), 'base64'))]));
    const ids = [...this.#keys.keys()];
    const current = currentKeyId ?? (ids.length === 1 ? ids[0] : undefined);
    if (current === undefined) {
      throw new ConfigError(`PAYLOAD_CODEC_KEY_ID must name the current key when PAYLOAD_CODEC_KEYS holds several (${ids.join(', ')})`);
    }
    if (!this.#keys.has(current)) {
      throw new ConfigError(`PAYLOAD_CODEC_KEY_ID=${current} is not one of PAYLOAD_CODEC_KEYS' ids (${ids.join(', ')})`);
    }
    this.currentKeyId = current;
  }

  keyFor(keyId: string): Promise<KeyObject | undefined> {
    return Promise.resolve(this.#keys.get(keyId));
  }
}
