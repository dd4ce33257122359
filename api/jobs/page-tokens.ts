import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Secret } from '../../lib/secret';

export interface PageTokens {
  write(token: Uint8Array): string;
  /** The token's bytes, or null when it is not one `write` made (with this key, for this list). */
  read(text: string): Buffer | null;
}

/**
 * Temporal's page tokens travel with an HMAC keyed by API_PAGE_TOKEN_SECRET and bound to the list they page
 * through (the tenant and the filter: `scope`). The server
 * answers a token it cannot read with a generic error its client retries for about 20 seconds, so a mangled or
 * forged token must never reach it: without the key nobody can make one that passes, and a token is refused for
 * another tenant or another filter than the one it came from.
 */
export function pageTokensFor(secret: Secret, scope: string): PageTokens {
  const mac = (bytes: Buffer) => createHmac('sha256', secret.reveal()).update(`${scope}\n`).update(bytes).digest().subarray(0, 16);
  return {
    write(token) {
      const bytes = Buffer.from(token);
      return `${bytes.toString('base64url')}.${mac(bytes).toString('base64url')}`;
    },
    read(text) {
      const [body, tag, ...rest] = text.split('.');
      if (!body || !tag || rest.length > 0) return null;
      const bytes = Buffer.from(body, 'base64url');
      const given = Buffer.from(tag, 'base64url');
      const expected = mac(bytes);
      return given.length === expected.length && timingSafeEqual(given, expected) ? bytes : null;
    },
  };
}
