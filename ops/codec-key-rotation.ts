import { randomBytes } from 'node:crypto';
import { CODEC_KEY_BYTES, codecKeys } from '../lib/payload-codec/codec-keys-setting';
import { EnvKeyProvider } from '../lib/payload-codec/key-provider';
import { ConfigError } from '../lib/settings/config-error';

/** The two deploys of a rotation: first every process learns the new key, then new payloads use it. */
export interface CodecKeyRotation {
  newKeyId: string;
  retiringKeyId: string;
  /** PAYLOAD_CODEC_KEYS for both deploys: the new key first, every key already there kept for decoding. */
  keysJson: string;
}

export interface RotationInput {
  /** PAYLOAD_CODEC_KEYS and PAYLOAD_CODEC_KEY_ID as the deployment has them now. */
  keysJson: string | undefined;
  currentKeyId: string | undefined;
  newKeyId?: string;
  now?: Date;
  random?: (bytes: number) => Buffer;
}

/** A fresh key beside the configured ones, named `k<date>` unless told (`-2`, `-3` … when that id is taken). */
export function rotateCodecKeys(input: RotationInput): CodecKeyRotation {
  if (!input.keysJson) throw new ConfigError('PAYLOAD_CODEC_KEYS is not set: there is nothing to rotate (docs/security.md#key-rotation)');
  const parsed = codecKeys().parse(input.keysJson);
  if (!parsed.ok) throw new ConfigError(`PAYLOAD_CODEC_KEYS: ${parsed.problems.map((p) => `${p.path || '(value)'} ${p.message}`).join('; ')}`);
  const retiringKeyId = new EnvKeyProvider(parsed.value, input.currentKeyId).currentKeyId;
  const base = input.newKeyId ?? `k${(input.now ?? new Date()).toISOString().slice(0, 10)}`;
  if (input.newKeyId !== undefined && input.newKeyId in parsed.value) throw new ConfigError(`key id ${input.newKeyId} is already in PAYLOAD_CODEC_KEYS`);
  let newKeyId = base;
  for (let n = 2; newKeyId in parsed.value; n++) newKeyId = `${base}-${n}`;
  const key = (input.random ?? randomBytes)(CODEC_KEY_BYTES).toString('base64');
  const keys = { [newKeyId]: key, ...Object.fromEntries(Object.entries(parsed.value).map(([id, secret]) => [id, secret.reveal()])) };
  // The new id must parse like any configured one: a bad --id fails here, not at the first deploy.
  const check = codecKeys().parse(JSON.stringify(keys));
  if (!check.ok) throw new ConfigError(`key id ${newKeyId}: ${check.problems.map((p) => p.message).join('; ')}`);
  return { newKeyId, retiringKeyId, keysJson: JSON.stringify(keys) };
}
