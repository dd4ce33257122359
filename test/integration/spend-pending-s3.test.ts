import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { describe, test } from '@jest/globals';
import { InProcessSpendStore } from '../../gateway/spend/local-spend-store';
import { s3PendingSettlements } from '../../gateway/spend/s3-pending-settlements';
import type { SpendStore } from '../../gateway/spend/spend-store';
import { createTenantSpend } from '../../gateway/spend/tenant-spend';
import { loadConfig } from '../../lib/config';
import { createObjectStore, createS3Client } from '../../lib/object-store';
import { testEnv } from '../support/test-env';

/** The real in-process store, unreachable until `up` is set: what a worker sees while Redis is away. */
function storeThatIsAway(store: SpendStore): SpendStore & { up: boolean } {
  const away = Object.create(store) as SpendStore & { up: boolean };
  away.up = false;
  away.settle = (hold, usd) => (away.up ? store.settle(hold, usd) : Promise.reject(new Error('connect ECONNREFUSED (spend Redis)')));
  return away;
}

describe('pending spend settlements in the stack’s S3', () => {
  test('when a worker cannot settle a paid call, then the record waits in S3 and another worker’s pass counts it once and removes it', async () => {
    const config = loadConfig(testEnv().productEnv ?? {});
    // A prefix of its own: the stack's workers settle what waits under the default one, as any worker may.
    const prefix = `spend/pending-test-${randomUUID().slice(0, 8)}/`;
    const pending = s3PendingSettlements(createObjectStore(config), prefix);
    const real = new InProcessSpendStore();
    const tenantId = `pending-${randomUUID().slice(0, 8)}`;
    const store = storeThatIsAway(real);
    const first = createTenantSpend({ store, caps: {}, pending });
    assert.equal(await first.spend(tenantId, { mostItCosts: () => 1, run: async () => 'paid', costOf: () => 0.25 }), 'paid');
    const waiting = (await pending.list()).filter((record) => record.hold.tenantId === tenantId);
    assert.equal(waiting.length, 1);
    assert.equal(waiting[0]?.usd, 0.25);
    // At rest the record is sealed like every object (the stack runs OBJECT_STORE_ENCRYPTION=product): the bucket
    // itself shows neither the tenant nor the amount.
    assert.equal(config.s3.encryption, 'product');
    const raw = createS3Client(config.s3);
    const [key] = (await raw.send(new ListObjectsV2Command({ Bucket: config.s3.bucket, Prefix: prefix }))).Contents ?? [];
    const stored = await (await raw.send(new GetObjectCommand({ Bucket: config.s3.bucket, Key: key?.Key }))).Body?.transformToString('utf8');
    assert.ok(stored && !stored.includes(tenantId) && !stored.includes('0.25'), `a pending record in plaintext: ${stored?.slice(0, 120)}`);

    // The first worker died; another, once the store is back, settles what it left.
    store.up = true;
    const second = createTenantSpend({ store, caps: {}, pending });
    await second.settler.settlePending();
    await second.settler.settlePending();
    const day = new Date().toISOString().slice(0, 10);
    assert.equal((await real.totalsOn(tenantId, day)).day, 0.25);
    assert.deepEqual((await pending.list()).filter((record) => record.hold.tenantId === tenantId), []);
  });
});
