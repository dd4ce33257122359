import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CallerRole } from '../../common/api-contract/meta';
import type { Config } from '../../lib/config';
import type { Caller } from '../auth';

export interface SocketTokens {
  /** A token that opens one WebSocket as this caller until `expiresAt`. */
  mint(caller: Caller): { token: string; expiresAt: Date };
  /** The caller the token was minted for, or undefined when it is forged, expired, already used or its tenant is gone. */
  redeem(token: string): Caller | undefined;
}

interface Claims {
  tenant: string;
  role: CallerRole;
  identity: string;
  via: Caller['via'];
  expires: number;
  nonce: string;
}

/**
 * A browser cannot set headers on a WebSocket upgrade, and an API key in a URL ends up in proxies' logs; so an
 * authenticated `POST` mints a short-lived, single-use token that goes in the URL instead. It is an HMAC over its
 * claims, so any API replica can check it; the key is derived from API_PAGE_TOKEN_SECRET (the API's one signing
 * secret, the same on every replica) with a label of its own, so a page token can never pass as a socket token.
 * "Single use" holds per process: the nonces redeemed here are kept until they expire.
 */
export function createSocketTokens(config: Pick<Config, 'api' | 'clients' | 'tenants'>, now: () => number = Date.now): SocketTokens {
  const key = Buffer.from(hkdfSync('sha256', config.api.pageTokenSecret.reveal(), '', 'slowlane websocket tokens', 32));
  const mac = (body: string) => createHmac('sha256', key).update(body).digest();
  const redeemed = new Map<string, number>();
  const forgetExpired = () => {
    for (const [nonce, expires] of redeemed) if (expires < now()) redeemed.delete(nonce);
  };

  return {
    mint(caller) {
      const expires = now() + config.clients.socketTokenTtl;
      const claims: Claims = { tenant: caller.tenant.id, role: caller.role, identity: caller.identity, via: caller.via, expires, nonce: randomBytes(12).toString('base64url') };
      const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
      return { token: `${body}.${mac(body).toString('base64url')}`, expiresAt: new Date(expires) };
    },
    redeem(token) {
      const [body, tag, ...rest] = token.split('.');
      if (!body || !tag || rest.length > 0) return undefined;
      const given = Buffer.from(tag, 'base64url');
      const expected = mac(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Claims;
      forgetExpired();
      if (claims.expires < now() || redeemed.has(claims.nonce)) return undefined;
      // A tenant removed from the settings since the token was minted opens nothing.
      const tenant = config.tenants.find((t) => t.id === claims.tenant);
      if (!tenant) return undefined;
      redeemed.set(claims.nonce, claims.expires);
      return { tenant, role: claims.role, identity: claims.identity, via: claims.via };
    },
  };
}
