import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as JoseModule from 'jose';

type Jose = typeof JoseModule;
type PrivateKey = Awaited<ReturnType<Jose['generateKeyPair']>>['privateKey'];

export interface TokenOptions {
  /** Claims beside `sub`, `iss`, `aud`, `iat`, `exp`; `undefined` removes a default one. */
  claims?: Record<string, unknown>;
  issuer?: string;
  audience?: string;
  /** Seconds since the epoch, or a jose time span such as `10m`. */
  expiresAt?: number | string;
  /** Sign with the key the provider never published. */
  unpublishedKey?: boolean;
}

export interface IdentityProvider {
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** The OIDC_* settings that make a Slowlane process trust this provider. */
  settings: Record<string, string>;
  /** An identity token for `sub`; by default a reviewer of tenant `demo`, valid for ten minutes. */
  token(sub: string, options?: TokenOptions): Promise<string>;
  close(): Promise<void>;
}

/**
 * A stand-in OpenID Connect provider for tests: an ES256 key generated here, its JWKS served on loopback, and a
 * second key it never published (what a forger would sign with).
 */
export async function startIdentityProvider(): Promise<IdentityProvider> {
  // jose is ESM only: loaded with import(), as the product loads it.
  const jose: Jose = await import('jose');
  const kid = 'test-key-1';
  const published = await jose.generateKeyPair('ES256');
  const unpublished: PrivateKey = (await jose.generateKeyPair('ES256')).privateKey;
  const jwk = { ...(await jose.exportJWK(published.publicKey)), kid, alg: 'ES256', use: 'sig' };
  const server = createServer((req, res) => {
    if (req.url !== '/jwks.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  const issuer = 'https://id.slowlane.test/';
  const audience = 'slowlane-review';

  return {
    issuer,
    audience,
    jwksUrl,
    settings: { OIDC_ISSUER: issuer, OIDC_AUDIENCE: audience, OIDC_JWKS_URL: jwksUrl },
    token: (sub, options = {}) =>
      new jose.SignJWT({ slowlane_tenant: 'demo', slowlane_roles: ['reviewer'], ...options.claims })
        .setProtectedHeader({ alg: 'ES256', kid })
        .setSubject(sub)
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? audience)
        .setIssuedAt()
        .setExpirationTime(options.expiresAt ?? '10m')
        .sign(options.unpublishedKey ? unpublished : published.privateKey),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
