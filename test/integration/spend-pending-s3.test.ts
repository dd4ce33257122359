import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { describe, test } from '@jest/globals';
import { InProcessSpendStore } from '../../gateway/spend/local-spend-store';
import { s3PendingSettlements } from '../../gateway/spend/s3-pending-settlements';
import type { SpendStore } from '../../gateway/spend/spend-store';
import { createTenantSpend } from '../../gateway/spend/tenant-spend';
import { loadConfig } from '../../lib/config';
import { createS3Client } from '../../lib/object-store';
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
    const pending = s3PendingSettlements(createS3Client(config.s3), config.s3.bucket, `spend/pending-test-${randomUUID().slice(0, 8)}/`);
    const real = new InProcessSpendStore();
    const tenantId = `pending-${randomUUID().slice(0, 8)}`;
    const store = storeThatIsAway(real);
    const first = createTenantSpend({ store, caps: {}, pending });
    assert.equal(await first.spend(tenantId, { mostItCosts: () => 1, run: async () => 'paid', costOf: () => 0.25 }), 'paid');
    const waiting = (await pending.list()).filter((record) => record.hold.tenantId === tenantId);
    assert.equal(waiting.length, 1);
    assert.equal(waiting[0]?.usd, 0.25);

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
