import type { NextFunction, Request, Response } from 'express';
import type { CallerRole, SignInProof } from '../common/api-contract/meta';
import type { Config, Tenant } from '../lib/config';
import { tokenDigest } from '../lib/config/credentials';
import { apiErrors } from './api-error';
import { createOidcVerifier, type OidcVerifier } from './oidc-verifier';

type Proof = SignInProof;

export interface Caller {
  tenant: Tenant;
  /** 'api' for the tenant's API key, 'reviewer' for a person reviewing (review endpoints and the reviewer page). */
  role: CallerRole;
  /**
   * Who acts, as decisions record it: the reviewer's id (from their token's entry, or the OIDC `sub`), or
   * `api-key` for the tenant's API key, which is a program rather than a person.
   */
  identity: string;
  via: Proof;
}

/** An operator on `/admin/*`: across tenants, so never a tenant credential. */
export interface Operator {
  id: string;
  via: Exclude<Proof, 'api-key'>;
}

/** The identity a tenant's API key acts as. */
export const API_KEY_IDENTITY = 'api-key';

type TokenOwner = { kind: 'tenant'; caller: Caller } | { kind: 'operator'; operator: Operator };

export interface Authenticator {
  caller(authorization: string | undefined): Promise<Caller | undefined>;
  operator(authorization: string | undefined): Promise<Operator | undefined>;
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
}

/** Three base64url parts: worth handing to the OIDC verifier; anything else is looked up as a token. */
const looksLikeJwt = (token: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);

/**
 * Every configured credential by its SHA-256, so a token is found with one lookup by digest (the digest of a
 * guess says nothing about a real token), and identity tokens checked against the OIDC issuer when configured.
 */
export function createAuthenticator(config: Pick<Config, 'tenants' | 'people'>): Authenticator {
  const owners = new Map<string, TokenOwner>();
  for (const tenant of config.tenants) {
    owners.set(tokenDigest(tenant.apiKey.reveal()), { kind: 'tenant', caller: { tenant, role: 'api', identity: API_KEY_IDENTITY, via: 'api-key' } });
    for (const reviewer of tenant.reviewers) {
      owners.set(reviewer.tokenSha256, { kind: 'tenant', caller: { tenant, role: 'reviewer', identity: reviewer.id, via: 'token' } });
    }
  }
  for (const operator of config.people.operators) {
    owners.set(operator.tokenSha256, { kind: 'operator', operator: { id: operator.id, via: 'token' } });
  }
  const oidc: OidcVerifier | undefined = config.people.oidc ? createOidcVerifier(config.people.oidc, config.tenants) : undefined;

  const ownerOf = (token: string) => owners.get(tokenDigest(token));
  return {
    async caller(authorization) {
      const token = bearerToken(authorization);
      if (!token) return undefined;
      const owner = ownerOf(token);
      if (owner) return owner.kind === 'tenant' ? owner.caller : undefined;
      return oidc && looksLikeJwt(token) ? oidc.reviewer(token) : undefined;
    },
    async operator(authorization) {
      const token = bearerToken(authorization);
      if (!token) return undefined;
      const owner = ownerOf(token);
      if (owner) return owner.kind === 'operator' ? owner.operator : undefined;
      return oidc && looksLikeJwt(token) ? oidc.operator(token) : undefined;
    },
  };
}

/** One authenticator per config object: the routers share it without each building the index again. */
const authenticators = new WeakMap<object, Authenticator>();
export function authenticatorFor(config: Pick<Config, 'tenants' | 'people'>): Authenticator {
  let authenticator = authenticators.get(config);
  if (!authenticator) {
    authenticator = createAuthenticator(config);
    authenticators.set(config, authenticator);
  }
  return authenticator;
}

/** API key, reviewer token or identity token → tenant and person; the caller is kept on res.locals for the routes. */
export function authenticate(config: Pick<Config, 'tenants' | 'people'>, allowed: CallerRole[]) {
  const authenticator = authenticatorFor(config);
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const caller = await authenticator.caller(req.headers.authorization);
    if (!caller || !allowed.includes(caller.role)) return next(apiErrors.unauthorized());
    res.locals.caller = caller;
    next();
  };
}

export function callerOf(res: Response): Caller {
  return res.locals.caller as Caller;
}
