import type { DataConverter } from '@temporalio/common';
import { dataConverterFor } from '../../lib/payload-codec/data-converter';
import { localTestConfig, RECORDED_TEST_KEYS } from './test-credentials';
import { testEnv } from './test-env';

/**
 * The payload codec settings the test stack's processes run with, so tests read and write what they do, plus the
 * recorded-test key to read recorded histories: a rotation in miniature (encrypt with the stack's, decrypt with both).
 * Plaintext is accepted because the oldest recorded histories were written before encryption; the stack's own
 * processes refuse it (test/workflow/plaintext-signal.test.ts runs a worker that does the same).
 */
export function testCodecSettings() {
  const stackKeys = testEnv().productEnv?.PAYLOAD_CODEC_KEYS;
  const keys = { ...RECORDED_TEST_KEYS, ...(stackKeys ? (JSON.parse(stackKeys) as Record<string, string>) : {}) };
  const current = stackKeys ? Object.keys(JSON.parse(stackKeys) as object)[0] : 'test-recorded';
  return localTestConfig({ PAYLOAD_CODEC_KEYS: JSON.stringify(keys), PAYLOAD_CODEC_KEY_ID: current, PAYLOAD_CODEC_ACCEPT_PLAINTEXT: 'true' }).temporal;
}

/** What every Temporal client and worker a test makes is given, like the product's own (lib/temporal-connection.ts). */
export function testDataConverter(): DataConverter {
  return dataConverterFor(testCodecSettings());
}
