import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { type Authenticator, bearerToken, createAuthenticator } from '../../api/auth';
import { Secret } from '../../lib/secret';
import { type IdentityProvider, startIdentityProvider } from '../support/identity-provider';
import { localTestConfig, TEST_OPERATOR, testTenant } from '../support/test-credentials';

const demo = testTenant('demo');
const acme = testTenant('acme');

describe('authentication with configured tokens: bearer token → tenant, role and person', () => {
  const auth = createAuthenticator(localTestConfig());

  test('when a secret is compared, then only the exact value matches, whatever its length', () => {
    const secret = new Secret('demo-key');
    assert.equal(secret.matches('demo-key'), true);
    for (const given of ['', 'demo-ke', 'demo-key ', 'demo-keyy', 'DEMO-KEY', 'x'.repeat(10_000)]) {
      assert.equal(secret.matches(given), false, JSON.stringify(given.slice(0, 20)));
    }
  });

  test('when an API key or a reviewer token is sent, then the caller is its tenant, with the role and the person', async () => {
    const callers = await Promise.all([
      auth.caller(`Bearer ${acme.apiKey}`),
      auth.caller(`bearer   ${demo.reviewerToken}`),
      auth.caller(`Bearer ${demo.reviewers[1]?.token}`),
      auth.caller(`Bearer ${acme.reviewerToken}`),
    ]);
    assert.deepEqual(
      callers.map((caller) => caller && `${caller.tenant.id}/${caller.role}/${caller.identity}/${caller.via}`),
      [
        'acme/api/api-key/api-key',
        `demo/reviewer/${demo.reviewer.id}/token`,
        `demo/reviewer/${demo.reviewers[1]?.id}/token`,
        `acme/reviewer/${acme.reviewer.id}/token`,
      ],
    );
  });

  test('when a reviewer is listed only by the SHA-256 of their token, then the token signs them in', async () => {
    const token = 'slr_hashed_9f8e7d6c5b4a3928171615141312111009';
    const { createHash } = await import('node:crypto');
    const hashed = createAuthenticator(
      localTestConfig({
        SLOWLANE_TENANTS: JSON.stringify([
          { id: 'demo', apiKey: demo.apiKey, webhookSecret: demo.webhookSecret, reviewers: [{ id: 'hana', tokenSha256: createHash('sha256').update(token).digest('hex') }] },
        ]),
      }),
    );
    assert.equal((await hashed.caller(`Bearer ${token}`))?.identity, 'hana');
    assert.equal(await hashed.caller(`Bearer ${token}x`), undefined);
  });

  test('when the header is missing, malformed or names no one, then there is no caller', async () => {
    for (const header of [undefined, '', demo.apiKey, `Basic ${demo.apiKey}`, 'Bearer', `Bearer ${demo.apiKey} extra`, 'Bearer admin-key', 'Bearer demo-reviewer-token', 'Bearer demo']) {
      assert.equal(await auth.caller(header), undefined, String(header));
    }
    assert.equal(bearerToken('Bearer  t0k3n'), 't0k3n');
  });

  test('when operator and tenant credentials are swapped, then neither opens the other door', async () => {
    assert.equal(await auth.caller(`Bearer ${TEST_OPERATOR.token}`), undefined, 'an operator is no tenant');
    assert.deepEqual(await auth.operator(`Bearer ${TEST_OPERATOR.token}`), { id: TEST_OPERATOR.id, via: 'token' });
    for (const token of [demo.apiKey, demo.reviewerToken, acme.apiKey]) assert.equal(await auth.operator(`Bearer ${token}`), undefined);
  });
});

describe('authentication with OIDC identity tokens (JWT, verified with jose against a JWKS)', () => {
  let idp: IdentityProvider;
  let auth: Authenticator;
  beforeAll(async () => {
    idp = await startIdentityProvider();
    auth = createAuthenticator(localTestConfig(idp.settings));
  });
  afterAll(() => idp?.close());

  test('when a valid identity token is sent, then the reviewer is its subject, in the tenant it names', async () => {
    const caller = await auth.caller(`Bearer ${await idp.token('carol@demo.example')}`);
    assert.deepEqual(caller && { tenant: caller.tenant.id, role: caller.role, identity: caller.identity, via: caller.via }, {
      tenant: 'demo',
      role: 'reviewer',
      identity: 'carol@demo.example',
      via: 'oidc',
    });
  });

  test('when the token expired an hour ago, then no one is signed in', async () => {
    const expired = await idp.token('carol', { expiresAt: Math.floor(Date.now() / 1000) - 3600 });
    assert.equal(await auth.caller(`Bearer ${expired}`), undefined);
  });

  test('when the issuer or the audience is another, then no one is signed in', async () => {
    assert.equal(await auth.caller(`Bearer ${await idp.token('carol', { issuer: 'https://evil.example/' })}`), undefined);
    assert.equal(await auth.caller(`Bearer ${await idp.token('carol', { issuer: 'https://id.slowlane.test' })}`), undefined, 'the issuer exactly');
    assert.equal(await auth.caller(`Bearer ${await idp.token('carol', { audience: 'another-app' })}`), undefined);
  });

  test('when the token is signed by a key the issuer never published, then no one is signed in', async () => {
    assert.equal(await auth.caller(`Bearer ${await idp.token('carol', { unpublishedKey: true })}`), undefined);
  });

  test('when the token is unsigned (alg none) or its payload was edited after signing, then no one is signed in', async () => {
    const valid = await idp.token('carol');
    const [header, payload, signature] = valid.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const edited = Buffer.from(JSON.stringify({ ...claims, sub: 'mallory' })).toString('base64url');
    assert.equal(await auth.caller(`Bearer ${header}.${edited}.${signature}`), undefined);
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    assert.equal(await auth.caller(`Bearer ${none}.${payload}.e30`), undefined);
  });

  test("when the token names another tenant, then the reviewer is that tenant's, and an unknown tenant or a missing role is nobody", async () => {
    assert.equal((await auth.caller(`Bearer ${await idp.token('kim', { claims: { slowlane_tenant: 'acme' } })}`))?.tenant.id, 'acme');
    assert.equal(await auth.caller(`Bearer ${await idp.token('kim', { claims: { slowlane_tenant: 'nobody' } })}`), undefined);
    assert.equal(await auth.caller(`Bearer ${await idp.token('kim', { claims: { slowlane_roles: ['operator'] } })}`), undefined);
  });

  test('when a token carries the operator role, then it opens /admin as its subject; a reviewer token does not', async () => {
    const operatorToken = await idp.token('olga', { claims: { slowlane_roles: ['operator'], slowlane_tenant: undefined } });
    assert.deepEqual(await auth.operator(`Bearer ${operatorToken}`), { id: 'olga', via: 'oidc' });
    assert.equal(await auth.operator(`Bearer ${await idp.token('carol')}`), undefined);
  });
});
