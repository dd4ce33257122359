import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LOCAL_CODEC_KEYS_FILE } from '../../lib/config/load-operator-config';
import { CODEC_KEY_BYTES } from '../../lib/payload-codec/codec-keys-setting';

/**
 * The local stack's PAYLOAD_CODEC_KEYS: made once per data folder and kept there, so a restarted stack still reads
 * the histories it wrote and operator commands find them there (lib/config/load-operator-config.ts). Owner-only,
 * like any key file; a fresh data folder (every `npm test`) gets a fresh key.
 */
export async function localCodecKeys(dataDir: string): Promise<string> {
  const file = join(dataDir, LOCAL_CODEC_KEYS_FILE);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const keys = JSON.stringify({ local: randomBytes(CODEC_KEY_BYTES).toString('base64') });
  await writeFile(file, keys, { mode: 0o600, flag: 'wx' });
  return keys;
}
