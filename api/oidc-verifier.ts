import type * as JoseModule from 'jose';
import type { JWTPayload } from 'jose';
import type { Tenant } from '../lib/config';
import type { OidcSettings } from '../lib/config/people';
import type { Caller, Operator } from './auth';

export interface OidcVerifier {
  /** A reviewer of the tenant the token names, or undefined when the token does not prove one. */
  reviewer(token: string): Promise<Caller | undefined>;
  operator(token: string): Promise<Operator | undefined>;
}

/** Signatures by the issuer's keys only: never `none`, never a shared-secret HMAC someone could forge with the JWKS. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** Clocks of the issuer and this host may differ a little; an hour-old token is still refused. */
const CLOCK_TOLERANCE_SECONDS = 30;

type Jose = typeof JoseModule;
// jose is ESM only; import() loads it in the CommonJS build and under Jest alike.
let jose: Promise<Jose> | undefined;
const loadJose = (): Promise<Jose> => (jose ??= import('jose'));

/**
 * Identity tokens (JWT) of one OpenID Connect issuer, checked with `jose`: signature by a key of the issuer's JWKS,
 * `iss`, `aud`, `exp` and `nbf`. The person is `sub`; what they may do is the roles claim; a reviewer's tenant is the
 * tenant claim and must be configured.
 */
export function createOidcVerifier(settings: OidcSettings, tenants: readonly Tenant[]): OidcVerifier {
  let keys: ReturnType<Jose['createRemoteJWKSet']> | undefined;

  async function verified(token: string, role: 'reviewer' | 'operator'): Promise<JWTPayload | undefined> {
    const { createRemoteJWKSet, jwtVerify } = await loadJose();
    // Fetched on first use and cached by jose, which refetches when a token names a key it does not know.
    keys ??= createRemoteJWKSet(new URL(settings.jwksUrl));
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: settings.issuer,
        audience: settings.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch {
      // Expired, wrong issuer or audience, unknown key, bad signature, JWKS unreachable: not signed in.
      return undefined;
    }
    if (typeof payload.sub !== 'string' || payload.sub === '' || payload.sub.length > 200) return undefined;
    const roles = payload[settings.rolesClaim];
    const granted = Array.isArray(roles) ? roles : typeof roles === 'string' ? roles.split(' ') : [];
    return granted.includes(role) ? payload : undefined;
  }

  return {
    async reviewer(token) {
      const payload = await verified(token, 'reviewer');
      const tenantId = payload?.[settings.tenantClaim];
      const tenant = tenants.find((candidate) => candidate.id === tenantId);
      if (!payload?.sub || !tenant) return undefined;
      return { tenant, role: 'reviewer', identity: payload.sub, via: 'oidc' };
    },
    async operator(token) {
      const payload = await verified(token, 'operator');
      return payload?.sub ? { id: payload.sub, via: 'oidc' } : undefined;
    },
  };
}
