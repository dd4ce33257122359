import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { PLATFORM_TRAIL } from '../../common/api-contract/audit';
import { AuditUnavailableError } from '../../lib/audit/audit-trail';
import { recordKeyRotation } from '../../ops/codec-key-audit';
import { rotateCodecKeys } from '../../ops/codec-key-rotation';
import { memoryAuditTrail } from '../support/memory-audit';

const OLD = Buffer.alloc(32, 7).toString('base64');

const rotate = () => rotateCodecKeys({ keysJson: JSON.stringify({ k1: OLD }), currentKeyId: undefined, now: new Date('2026-12-06T10:00:00Z') });

describe('npm run codec-key -- rotate, in the audit trail', () => {
  test('when keys are rotated, then one record in the platform trail names the operator, the time and the key ids, and no key is stored', async () => {
    const trail = memoryAuditTrail();
    const rotation = rotate();
    const handle = await recordKeyRotation(trail, rotation, 'ops-alice');
    await handle.finish('done');

    const { records } = await trail.list(PLATFORM_TRAIL, {}, { limit: 10 });
    assert.equal(records.length, 1);
    const [record] = records;
    assert.equal(record?.action, 'codec-key.rotate');
    assert.equal(record?.tenantId, PLATFORM_TRAIL);
    assert.deepEqual(record?.actor, { kind: 'operator', id: 'ops-alice', via: 'cli' });
    assert.deepEqual(record?.details, { newKeyId: 'k2026-12-06', retiringKeyId: 'k1', keyIds: 'k2026-12-06,k1', keyCount: 2 });
    assert.ok(!Number.isNaN(Date.parse(record?.at ?? '')), 'when');
    assert.equal(record?.outcome, 'done');
    assert.equal(record?.recordId, handle.recordId);

    const keys = Object.values(JSON.parse(rotation.keysJson) as Record<string, string>);
    const written = [...trail.store.objects.values()].map((bytes) => bytes.toString('utf8')).join('\n');
    for (const key of keys) {
      assert.ok(!written.includes(key), 'no key in base64 in what the trail stored');
      assert.ok(!written.includes(Buffer.from(key, 'base64').toString('hex')), 'nor in hex');
    }
    assert.ok([...trail.store.objects.keys()].every((key) => key.startsWith(`audit/${PLATFORM_TRAIL}/`)), 'no tenant’s trail is written');
  });

  test('when the command runs twice, then there are two records, even under the same new key id', async () => {
    const trail = memoryAuditTrail();
    await recordKeyRotation(trail, rotate(), 'ops-alice');
    await recordKeyRotation(trail, rotate(), 'ops-bob');
    const { records } = await trail.list(PLATFORM_TRAIL, {}, { limit: 10 });
    assert.deepEqual(records.map((record) => record.actor.id).sort(), ['ops-alice', 'ops-bob']);
  });

  test('when the trail cannot be written, then the record is refused with AuditUnavailableError and nothing is stored', async () => {
    const trail = memoryAuditTrail();
    trail.store.failNextPut((key) => key.startsWith(`audit/${PLATFORM_TRAIL}/`), new Error('S3 is away (injected)'));
    await assert.rejects(recordKeyRotation(trail, rotate(), 'ops-alice'), AuditUnavailableError);
    assert.deepEqual((await trail.list(PLATFORM_TRAIL, {}, { limit: 10 })).records, []);
  });
});
