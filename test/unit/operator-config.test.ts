import assert from '../support/assert';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, test } from '@jest/globals';
import { ConfigError, loadOperatorConfig } from '../../lib/config';

const dataDirs: string[] = [];
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const key = () => randomBytes(32).toString('base64');

/** A data folder as `npm start` leaves it: the codec keys it generated, in local/stack/local-codec-keys.ts's file. */
function stackDataDir(keys?: Record<string, string>): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'slowlane-operator-config-'));
  dataDirs.push(dataDir);
  if (keys) writeFileSync(join(dataDir, 'payload-codec-keys.json'), JSON.stringify(keys));
  return dataDir;
}

describe('loadOperatorConfig', () => {
  test("when nothing is set but the stack's data folder, then it connects where `npm start` serves, with the stack's keys", () => {
    const local = key();
    const config = loadOperatorConfig({ SLOWLANE_DATA_DIR: stackDataDir({ local }) });
    assert.equal(config.temporal.address, '127.0.0.1:7233');
    assert.equal(config.temporal.namespace, 'slowlane');
    assert.equal(config.temporal.payloadCodecKeys?.local?.reveal(), local);
  });

  test("when PAYLOAD_CODEC_KEYS is set, then it wins over the stack's file", () => {
    const own = key();
    const config = loadOperatorConfig({ SLOWLANE_DATA_DIR: stackDataDir({ local: key() }), PAYLOAD_CODEC_KEYS: JSON.stringify({ own }) });
    assert.deepEqual(Object.keys(config.temporal.payloadCodecKeys ?? {}), ['own']);
  });

  test("when there are no keys at all, then the one error names the codec keys and none of the servers' settings", () => {
    assert.throws(
      () => loadOperatorConfig({ SLOWLANE_DATA_DIR: stackDataDir() }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /PAYLOAD_CODEC_KEYS is required in production/);
        assert.doesNotMatch(error.message, /SLOWLANE_ENV|SLOWLANE_TENANTS|ANTHROPIC_API_KEY|API_PAGE_TOKEN_SECRET/);
        return true;
      },
    );
    assert.equal(loadOperatorConfig({ SLOWLANE_DATA_DIR: stackDataDir(), SLOWLANE_ENV: 'local' }).temporal.payloadCodecKeys, undefined, 'local mode may run plaintext');
  });

  test("when the stack's key file is broken, then the error names the file, not the value", () => {
    const dataDir = stackDataDir();
    writeFileSync(join(dataDir, 'payload-codec-keys.json'), '{"local":"short"}');
    assert.throws(() => loadOperatorConfig({ SLOWLANE_DATA_DIR: dataDir }), /payload-codec-keys\.json\.local must be the base64 text of a 32-byte key/);
  });
});
