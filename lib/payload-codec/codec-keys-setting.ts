import { Secret } from '../secret';
import type { Parsed, Problem, SettingType } from '../settings/setting';

/** AES-256 takes a 32-byte key. */
export const CODEC_KEY_BYTES = 32;

/** The configured keys by id, each the base64 text of a 32-byte key (revealed only by the key provider). */
export type CodecKeys = Record<string, Secret>;

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** `{"2026-12":"<base64 of 32 bytes>", …}`: every key still able to decrypt old histories, the current one among them. */
export function codecKeys(): SettingType<CodecKeys> {
  return {
    description: 'JSON: {keyId: base64 of a 32-byte key}',
    secret: true,
    parse(raw): Parsed<CodecKeys> {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        return { ok: false, problems: [{ path: '', message: 'must be valid JSON' }] };
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length === 0) {
        return { ok: false, problems: [{ path: '', message: 'must be a JSON object with at least one key id' }] };
      }
      const problems: Problem[] = [];
      const keys: CodecKeys = {};
      for (const [id, key] of Object.entries(value)) {
        if (!KEY_ID.test(id)) problems.push({ path: `.${id}`, message: 'key ids are 1–64 of A–Z a–z 0–9 . _ -' });
        else if (typeof key !== 'string' || Buffer.from(key, 'base64').length !== CODEC_KEY_BYTES) {
          problems.push({ path: `.${id}`, message: `must be the base64 text of a ${CODEC_KEY_BYTES}-byte key` });
        } else keys[id] = new Secret(key);
      }
      return problems.length > 0 ? { ok: false, problems } : { ok: true, value: keys };
    },
  };
}
