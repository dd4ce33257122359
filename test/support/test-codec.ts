import type { DataConverter } from '@temporalio/common';
import { loadConfig } from '../../lib/config';
import { dataConverterFor } from '../../lib/payload-codec/data-converter';
import { testEnv } from './test-env';

/**
 * A public key for tests only: what a file run alone (`npx jest`) and `npm run record-histories` encrypt with, so
 * histories recorded under it replay in every later run. Never a key of any deployment.
 */
export const RECORDED_TEST_KEYS = { 'test-recorded': Buffer.alloc(32, 7).toString('base64') };

/**
 * The payload codec settings the test stack's processes run with, so tests read and write what they do, plus the
 * recorded-test key to read recorded histories: a rotation in miniature (encrypt with the stack's, decrypt with both).
 */
export function testCodecSettings() {
  const stackKeys = testEnv().productEnv?.PAYLOAD_CODEC_KEYS;
  const keys = { ...RECORDED_TEST_KEYS, ...(stackKeys ? (JSON.parse(stackKeys) as Record<string, string>) : {}) };
  const current = stackKeys ? Object.keys(JSON.parse(stackKeys) as object)[0] : 'test-recorded';
  return loadConfig({ SLOWLANE_ENV: 'local', PAYLOAD_CODEC_KEYS: JSON.stringify(keys), PAYLOAD_CODEC_KEY_ID: current }).temporal;
}

/** What every Temporal client and worker a test makes is given, like the product's own (lib/temporal-connection.ts). */
export function testDataConverter(): DataConverter {
  return dataConverterFor(testCodecSettings());
}
