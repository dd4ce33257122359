import assert from '../support/assert';
import { randomBytes } from 'node:crypto';
import { describe, test } from '@jest/globals';
import { DefaultPayloadConverter } from '@temporalio/common';
import { loadConfig } from '../../lib/config';
import { localTestEnv } from '../support/test-credentials';
import { EncryptionCodec, KEY_ID_METADATA, PayloadDecryptionError, PlaintextPayloadError } from '../../lib/payload-codec/encryption-codec';
import { EnvKeyProvider } from '../../lib/payload-codec/key-provider';
import { ConfigError } from '../../lib/settings/config-error';
import { Secret } from '../../lib/secret';

const converter = new DefaultPayloadConverter();
const newKey = () => new Secret(randomBytes(32).toString('base64'));
const invoice = { invoiceNumber: 'INV-2026-0042', totalAmount: 1234.56, issuer: 'Acme Widgets GmbH', fileName: 'acme.pdf' };
const bytesText = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? new Uint8Array()).toString('latin1');

describe('the payload encryption codec', () => {
  const oldKey = newKey();
  const currentKey = newKey();
  const before = new EncryptionCodec(new EnvKeyProvider({ k1: oldKey }, undefined), { acceptPlaintext: false });
  const after = new EncryptionCodec(new EnvKeyProvider({ k1: oldKey, k2: currentKey }, 'k2'), { acceptPlaintext: false });
  const migrating = new EncryptionCodec(new EnvKeyProvider({ k1: oldKey, k2: currentKey }, 'k2'), { acceptPlaintext: true });

  test('when a payload is encoded and decoded, then it comes back whole and the stored bytes hide every value', async () => {
    const payload = converter.toPayload(invoice);
    const [encoded] = await after.encode([payload]);
    assert.ok(encoded);
    assert.equal(new TextDecoder().decode(encoded.metadata?.encoding ?? undefined), 'binary/encrypted');
    assert.equal(new TextDecoder().decode(encoded.metadata?.[KEY_ID_METADATA] ?? undefined), 'k2');
    for (const value of ['INV-2026-0042', '1234.56', 'Acme', 'acme.pdf', 'json/plain']) {
      assert.ok(!bytesText(encoded.data).includes(value), `${value} is not readable in the ciphertext`);
    }
    const [decoded] = await after.decode([encoded]);
    assert.deepEqual(converter.fromPayload(decoded!), invoice);
  });

  test('when the same value is encoded twice, then the ciphertexts differ (a fresh IV each time)', async () => {
    const [a, b] = await after.encode([converter.toPayload(invoice), converter.toPayload(invoice)]);
    assert.notEqual(bytesText(a?.data), bytesText(b?.data));
  });

  test('when the key rotates, then payloads written under the old key still decode and new ones use the new key', async () => {
    const [old] = await before.encode([converter.toPayload(invoice)]);
    assert.deepEqual(converter.fromPayload((await after.decode([old!]))[0]!), invoice);
    const [fresh] = await after.encode([converter.toPayload(invoice)]);
    assert.equal(new TextDecoder().decode(fresh?.metadata?.[KEY_ID_METADATA] ?? undefined), 'k2');
  });

  test('when a byte of the ciphertext is changed, then decoding fails with a clear error', async () => {
    const [encoded] = await after.encode([converter.toPayload(invoice)]);
    const data = Uint8Array.from(encoded!.data!);
    data[20] = (data[20] ?? 0) ^ 1;
    await assert.rejects(after.decode([{ ...encoded, data }]), (error: unknown) => {
      assert.ok(error instanceof PayloadDecryptionError);
      assert.match(error.message, /failed authentication.*altered or the key is wrong/);
      return true;
    });
  });

  test('when the key id in the metadata is swapped for another configured one, then decoding fails', async () => {
    const [encoded] = await after.encode([converter.toPayload(invoice)]);
    const relabelled = { ...encoded, metadata: { ...encoded!.metadata, [KEY_ID_METADATA]: new TextEncoder().encode('k1') } };
    await assert.rejects(after.decode([relabelled]), PayloadDecryptionError);
  });

  test('when a payload names a key that is not configured, then the error names the key and the variable', async () => {
    const [encoded] = await after.encode([converter.toPayload(invoice)]);
    await assert.rejects(before.decode([encoded!]), /key k2, which is not configured: add it to PAYLOAD_CODEC_KEYS/);
  });

  test('when a plaintext payload arrives (a signal sent without the codec), then decoding refuses it and names the setting', async () => {
    const forged = converter.toPayload({ fields: invoice, reviewer: 'mallory' });
    const [genuine] = await after.encode([converter.toPayload(invoice)]);
    await assert.rejects(after.decode([genuine!, forged]), (error: unknown) => {
      assert.ok(error instanceof PlaintextPayloadError);
      assert.ok(error instanceof PayloadDecryptionError, 'the codec endpoint answers it like any undecryptable payload');
      assert.match(error.message, /not encrypted \(encoding json\/plain\) and is refused.*PAYLOAD_CODEC_ACCEPT_PLAINTEXT/);
      return true;
    });
    await assert.rejects(after.decode([{ metadata: {}, data: new Uint8Array([1]) }]), /encoding none/);
  });

  test('when plaintext is accepted for a migration window, then a payload written before encryption passes through unchanged', async () => {
    const plain = converter.toPayload(invoice);
    const [decoded] = await migrating.decode([plain]);
    assert.equal(decoded, plain);
  });

  test('when payloads are encrypted, then each is counted under the key that encrypted it', async () => {
    const counted: Array<[string, number]> = [];
    const keys = new EnvKeyProvider({ k1: oldKey, k2: currentKey }, 'k2');
    const counting = new EncryptionCodec(keys, { acceptPlaintext: false, onEncrypt: (keyId, count) => counted.push([keyId, count]) });
    await counting.encode([converter.toPayload(1), converter.toPayload(2), converter.toPayload(3)]);
    await counting.encode([]);
    await counting.decode(await counting.encode([converter.toPayload(4)]));
    assert.deepEqual(counted, [['k2', 3], ['k2', 1]]);
  });
});

describe('the codec settings', () => {
  const key = randomBytes(32).toString('base64');

  test('when several keys are set without PAYLOAD_CODEC_KEY_ID, then the key provider refuses to choose', () => {
    const config = loadConfig(localTestEnv({ PAYLOAD_CODEC_KEYS: JSON.stringify({ a: key, b: key }) }));
    assert.throws(() => new EnvKeyProvider(config.temporal.payloadCodecKeys!, undefined), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /PAYLOAD_CODEC_KEY_ID must name the current key/);
      return true;
    });
  });

  test('when PAYLOAD_CODEC_KEY_ID names no configured key, then the error says so', () => {
    const config = loadConfig(localTestEnv({ PAYLOAD_CODEC_KEYS: JSON.stringify({ a: key }), PAYLOAD_CODEC_KEY_ID: 'b' }));
    assert.throws(() => new EnvKeyProvider(config.temporal.payloadCodecKeys!, config.temporal.payloadCodecKeyId), /PAYLOAD_CODEC_KEY_ID=b is not one of/);
  });

  test('when a key is not 32 bytes, then the configuration is refused naming the variable and the key id, not the key', () => {
    const short = randomBytes(16).toString('base64');
    assert.throws(() => loadConfig(localTestEnv({ PAYLOAD_CODEC_KEYS: JSON.stringify({ k1: short }) })), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /PAYLOAD_CODEC_KEYS\.k1 must be the base64 text of a 32-byte key/);
      assert.ok(!error.message.includes(short));
      return true;
    });
  });

  test('when production starts without PAYLOAD_CODEC_KEYS, then the configuration is refused naming it', () => {
    assert.throws(() => loadConfig(localTestEnv({ SLOWLANE_ENV: 'production', PAYLOAD_CODEC_KEYS: undefined })), /PAYLOAD_CODEC_KEYS is required in production/);
  });
});
