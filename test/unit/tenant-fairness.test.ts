import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { tenantFairness } from '../../api/jobs/tenant-fairness';
import { localTestConfig, TEST_SECRETS } from '../support/test-credentials';

/** The test tenants with a weight on the first one, as an operator would write SLOWLANE_TENANTS. */
function tenantsWithWeight(weight: number): string {
  const [first, ...rest] = TEST_SECRETS.tenants;
  assert.ok(first);
  return JSON.stringify([{ ...first, fairnessWeight: weight }, ...rest]);
}

describe('tenant fairness of a job start', () => {
  test('when a tenant has a weight, then its jobs start with the tenant as fairness key and that weight', () => {
    const config = localTestConfig({ SLOWLANE_TENANTS: tenantsWithWeight(3) });
    const [first, second] = config.tenants;
    assert.ok(first && second);
    assert.deepEqual(tenantFairness(config, first.id), { priority: { fairnessKey: first.id, fairnessWeight: 3 } });
    assert.deepEqual(tenantFairness(config, second.id), { priority: { fairnessKey: second.id, fairnessWeight: 1 } });
  });

  test('when fairness keys are off, then jobs start without one (first in, first out across tenants)', () => {
    const config = localTestConfig({ TEMPORAL_FAIRNESS_KEYS: 'off' });
    const [first] = config.tenants;
    assert.ok(first);
    assert.deepEqual(tenantFairness(config, first.id), {});
  });

  test('when a weight is not positive, then the configuration is refused at start', () => {
    assert.throws(() => localTestConfig({ SLOWLANE_TENANTS: tenantsWithWeight(0) }), /fairnessWeight/);
  });
});
