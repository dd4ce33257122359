import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { DefaultPayloadConverter } from '@temporalio/common';
import { Registry } from 'prom-client';
import { codecFor } from '../../lib/payload-codec/data-converter';
import { KeyUsage, processKeyUsage, registerKeyUsageMetric, warnOnKeyUsage } from '../../lib/payload-codec/key-usage';
import { localTestConfig } from '../support/test-credentials';

const converter = new DefaultPayloadConverter();

describe('counting encryptions per payload key', () => {
  test('when a process crosses the threshold for a key, then it warns once for that key and not for the others', () => {
    const usage = new KeyUsage();
    const warnings: Array<Record<string, unknown>> = [];
    warnOnKeyUsage({ usage, threshold: 5, log: { warn: (fields) => warnings.push(fields as Record<string, unknown>) } });
    usage.record('k1', 4);
    usage.record('k2', 2);
    assert.equal(warnings.length, 0);
    usage.record('k1', 1);
    usage.record('k1', 10);
    assert.equal(warnings.length, 1);
    assert.deepEqual({ keyId: warnings[0]?.keyId, encryptions: warnings[0]?.encryptions, limit: warnings[0]?.limit }, { keyId: 'k1', encryptions: 5, limit: 2 ** 32 });
  });

  test('when payloads are encrypted, then the metric counts them by key id, those counted before it was registered included', async () => {
    const usage = new KeyUsage();
    usage.record('k1', 3);
    const registry = new Registry();
    registerKeyUsageMetric(registry, usage);
    usage.record('k1', 2);
    usage.record('k2', 7);
    const text = await registry.metrics();
    assert.match(text, /slowlane_payload_encryptions_total\{key_id="k1"\} 5/);
    assert.match(text, /slowlane_payload_encryptions_total\{key_id="k2"\} 7/);
  });

  test("when the process's codec encrypts, then processKeyUsage counts it under the current key", async () => {
    const codec = codecFor(localTestConfig().temporal);
    assert.ok(codec);
    const before = processKeyUsage.count('test-recorded');
    await codec.encode([converter.toPayload('a'), converter.toPayload('b')]);
    assert.equal(processKeyUsage.count('test-recorded') - before, 2);
  });
});
