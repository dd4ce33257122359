import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { bearerToken, findCaller } from '../../api/auth';
import { loadConfig } from '../../lib/config';
import { Secret } from '../../lib/secret';

const tenants = loadConfig({
  SLOWLANE_TENANTS: JSON.stringify([
    { id: 'demo', apiKey: 'demo-key', reviewerToken: 'demo-reviewer-token', webhookSecret: 'w1' },
    { id: 'acme', apiKey: 'acme-key', reviewerToken: 'acme-reviewer-token', webhookSecret: 'w2' },
  ]),
}).tenants;

describe('authentication: bearer token → tenant and role', () => {
  test('when a secret is compared, then only the exact value matches, whatever its length', () => {
    const secret = new Secret('demo-key');
    assert.equal(secret.matches('demo-key'), true);
    for (const given of ['', 'demo-ke', 'demo-key ', 'demo-keyy', 'DEMO-KEY', 'x'.repeat(10_000)]) {
      assert.equal(secret.matches(given), false, JSON.stringify(given.slice(0, 20)));
    }
  });

  test('when an API key or a reviewer token is sent, then the caller is its tenant with the matching role', () => {
    assert.deepEqual(
      [findCaller(tenants, 'Bearer acme-key'), findCaller(tenants, 'bearer   demo-reviewer-token')].map((c) => c && `${c.tenant.id}/${c.role}`),
      ['acme/api', 'demo/reviewer'],
    );
  });

  test('when the header is missing, malformed or names no tenant, then there is no caller', () => {
    for (const header of [undefined, '', 'demo-key', 'Basic demo-key', 'Bearer', 'Bearer demo-key extra', 'Bearer admin-key', 'Bearer demo']) {
      assert.equal(findCaller(tenants, header), undefined, String(header));
    }
    assert.equal(bearerToken('Bearer  t0k3n'), 't0k3n');
  });
});
