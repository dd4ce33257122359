import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { DefaultPayloadConverter } from '@temporalio/common';
import { rotateCodecKeys } from '../../ops/codec-key-rotation';
import { codecFor } from '../../lib/payload-codec/data-converter';
import { localTestConfig } from '../support/test-credentials';

const converter = new DefaultPayloadConverter();
const OLD = Buffer.alloc(32, 1).toString('base64');

describe('npm run codec-key -- rotate', () => {
  test('when a key is rotated, then the new key sits first beside the old, and step 1 still encrypts under the old key', async () => {
    const rotation = rotateCodecKeys({ keysJson: JSON.stringify({ k1: OLD }), currentKeyId: undefined, now: new Date('2026-12-06T03:00:00Z') });
    assert.equal(rotation.newKeyId, 'k2026-12-06');
    assert.equal(rotation.retiringKeyId, 'k1');
    const keys = JSON.parse(rotation.keysJson) as Record<string, string>;
    assert.deepEqual(Object.keys(keys), ['k2026-12-06', 'k1']);
    assert.equal(keys.k1, OLD);
    assert.equal(Buffer.from(keys['k2026-12-06'] ?? '', 'base64').length, 32);

    const before = codecFor(localTestConfig({ PAYLOAD_CODEC_KEYS: JSON.stringify({ k1: OLD }), PAYLOAD_CODEC_KEY_ID: undefined }).temporal);
    const stepOne = codecFor(localTestConfig({ PAYLOAD_CODEC_KEYS: rotation.keysJson, PAYLOAD_CODEC_KEY_ID: 'k1' }).temporal);
    const stepTwo = codecFor(localTestConfig({ PAYLOAD_CODEC_KEYS: rotation.keysJson, PAYLOAD_CODEC_KEY_ID: rotation.newKeyId }).temporal);
    assert.ok(before && stepOne && stepTwo);
    const written = await stepOne.encode([converter.toPayload('step one')]);
    assert.equal(Buffer.from(written[0]?.metadata?.['encryption-key-id'] ?? []).toString(), 'k1');
    assert.equal(converter.fromPayload((await before.decode(written))[0]!), 'step one', 'a process not yet deployed reads step 1');
    const fresh = await stepTwo.encode([converter.toPayload('step two')]);
    assert.equal(Buffer.from(fresh[0]?.metadata?.['encryption-key-id'] ?? []).toString(), rotation.newKeyId);
    assert.equal(converter.fromPayload((await stepOne.decode(fresh))[0]!), 'step two');
  });

  test('when the dated id is taken or several keys are configured, then the id gets a suffix and the current key comes from PAYLOAD_CODEC_KEY_ID', () => {
    const keysJson = JSON.stringify({ 'k2026-12-06': OLD, k0: Buffer.alloc(32, 2).toString('base64') });
    const rotation = rotateCodecKeys({ keysJson, currentKeyId: 'k2026-12-06', now: new Date('2026-12-06T09:00:00Z') });
    assert.equal(rotation.newKeyId, 'k2026-12-06-2');
    assert.equal(rotation.retiringKeyId, 'k2026-12-06');
  });

  test('when nothing is configured, the id is taken or invalid, then it refuses and says why', () => {
    assert.throws(() => rotateCodecKeys({ keysJson: undefined, currentKeyId: undefined }), /PAYLOAD_CODEC_KEYS is not set/);
    assert.throws(() => rotateCodecKeys({ keysJson: JSON.stringify({ k1: OLD }), currentKeyId: undefined, newKeyId: 'k1' }), /already in PAYLOAD_CODEC_KEYS/);
    assert.throws(() => rotateCodecKeys({ keysJson: JSON.stringify({ k1: OLD }), currentKeyId: undefined, newKeyId: 'no spaces' }), /key ids are/);
    assert.throws(() => rotateCodecKeys({ keysJson: '{"k1":"short"}', currentKeyId: undefined }), /32-byte key/);
  });
});
