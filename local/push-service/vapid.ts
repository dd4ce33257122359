import { createPublicKey, verify } from 'node:crypto';

export type VapidCheck = { ok: true; publicKey: string; subject: string } | { ok: false; status: 401 | 403; reason: string };

const MAX_LIFETIME_S = 24 * 60 * 60;

/**
 * Checks a push's `Authorization: vapid t=<JWT>, k=<key>` as a push service does (RFC 8292 §2-4): an ES256 JWT signed
 * by `k`, for this service's origin, not expired and not valid for more than 24 h, with a contact `sub`; and `k` must
 * be the applicationServerKey the subscription was made with (§4.2, restricted subscriptions).
 */
export function checkVapid(authorization: string | undefined, audience: string, applicationServerKey: string, nowS = Date.now() / 1000): VapidCheck {
  const refuse = (reason: string, status: 401 | 403 = 401): VapidCheck => ({ ok: false, status, reason });
  const match = /^vapid\s+(.+)$/i.exec(authorization ?? '');
  if (!match?.[1]) return refuse('no `Authorization: vapid` header');
  const params = Object.fromEntries(match[1].split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  const token = params.t;
  const key = params.k;
  if (!token || !key) return refuse('the vapid header needs t= and k=');
  const [header, claims, signature] = token.split('.');
  if (!header || !claims || !signature) return refuse('t is not a JWT');
  const publicKey = Buffer.from(key, 'base64url');
  if (publicKey.length !== 65 || publicKey[0] !== 0x04) return refuse('k is not an uncompressed P-256 point');
  let parsedHeader: { alg?: string };
  let parsedClaims: { aud?: string; exp?: number; sub?: string };
  try {
    parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as typeof parsedHeader;
    parsedClaims = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as typeof parsedClaims;
  } catch {
    return refuse('the JWT is not JSON');
  }
  if (parsedHeader.alg !== 'ES256') return refuse(`alg ${parsedHeader.alg} is not ES256`);
  const keyObject = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: publicKey.subarray(1, 33).toString('base64url'), y: publicKey.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const signed = verify('sha256', Buffer.from(`${header}.${claims}`), { key: keyObject, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!signed) return refuse('the JWT signature does not verify with k');
  if (parsedClaims.aud !== audience) return refuse(`aud ${parsedClaims.aud} is not ${audience}`);
  if (typeof parsedClaims.exp !== 'number' || parsedClaims.exp <= nowS) return refuse('the JWT has expired');
  if (parsedClaims.exp > nowS + MAX_LIFETIME_S) return refuse('the JWT is valid for more than 24 hours');
  if (!parsedClaims.sub || !/^(mailto:|https:)/.test(parsedClaims.sub)) return refuse('sub must be a mailto: or https: contact');
  if (key.replace(/=+$/, '') !== applicationServerKey.replace(/=+$/, '')) return refuse('k is not the key this subscription was made with', 403);
  return { ok: true, publicKey: key, subject: parsedClaims.sub };
}
