import { join } from 'node:path';
import { extname } from 'node:path';
import type { DataConverter } from '@temporalio/common';
import type { Config } from '../config';
import { EncryptionCodec } from './encryption-codec';
import { EnvKeyProvider, type KeyProvider } from './key-provider';
import { processKeyUsage } from './key-usage';

/** common/failure-converter.ts, or its compiled `.js` under dist/. */
export const FAILURE_CONVERTER_PATH = join(__dirname, '..', '..', 'common', `failure-converter${extname(__filename)}`);

type CodecSettings = Pick<Config['temporal'], 'payloadCodecKeys' | 'payloadCodecKeyId' | 'payloadCodecAcceptPlaintext'>;

/** The key provider configured for this process, or undefined when payloads stay plaintext (local mode without keys). */
export function keyProviderFor(config: CodecSettings): KeyProvider | undefined {
  return config.payloadCodecKeys ? new EnvKeyProvider(config.payloadCodecKeys, config.payloadCodecKeyId) : undefined;
}

/** The codec configured for this process (undefined without keys); its encryptions count in processKeyUsage. */
export function codecFor(config: CodecSettings): EncryptionCodec | undefined {
  const keys = keyProviderFor(config);
  if (!keys) return undefined;
  return new EncryptionCodec(keys, {
    acceptPlaintext: config.payloadCodecAcceptPlaintext,
    onEncrypt: (keyId, count) => processKeyUsage.record(keyId, count),
  });
}

/** What every client, worker and replayer of ours is given, so all of them read and write the same payloads. */
export function dataConverterFor(config: CodecSettings): DataConverter {
  const codec = codecFor(config);
  return {
    failureConverterPath: FAILURE_CONVERTER_PATH,
    ...(codec ? { payloadCodecs: [codec] } : {}),
  };
}
