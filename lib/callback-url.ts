import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Config } from './config';

/**
 * Which callback URLs Slowlane will POST webhooks to. A tenant chooses the URL, but our workers send the request,
 * so without this check a tenant could make them call into our own network (cloud metadata at 169.254.169.254,
 * an admin port on 127.0.0.1). The URL is checked when the job is submitted, and the addresses DNS gives for it
 * are checked again at every delivery, on the connection itself, so a name that later resolves somewhere private
 * (DNS rebinding) is refused too.
 */
export interface CallbackUrlPolicy {
  /** Loopback, private and link-local targets are allowed (the local stack, whose receivers are on 127.0.0.1). */
  allowPrivate: boolean;
  /** Only `https:`: a webhook carries the job's result, which must not cross a network in the clear. */
  requireHttps: boolean;
}

/** The deployment's policy: https only in production, private targets only when WEBHOOK_ALLOW_PRIVATE_URLS says so. */
export function callbackUrlPolicy(config: Pick<Config, 'deployment' | 'clients'>): CallbackUrlPolicy {
  return { allowPrivate: config.clients.allowPrivateCallbackUrls, requireHttps: config.deployment === 'production' };
}

export type CallbackUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;

/** Ranges no webhook may reach unless the deployment allows it (IANA special-purpose registries). */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d (RFC 4291 §2.5.5.1)
  ['::ffff:0:0:0', 96], // IPv4-translated ::ffff:0:a.b.c.d (RFC 2765)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo: the client's IPv4 address is hidden in it, so it cannot be judged
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID (deprecated)
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // SRv6 SIDs
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (`isIP` already said it is one), a trailing dotted quad included. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (high: number, low: number): string => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * IPv6 forms that route to an IPv4 address are judged by that address: IPv4-mapped ::ffff:a.b.c.d, NAT64
 * 64:ff9b::/96 and 6to4 2002:wwxx:yyzz::/16 — in any spelling (dotted or hex, compressed or not).
 */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address) as [number, number, number, number, number, number, number, number];
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return ipv4Of(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4Of(g[6], g[7]);
  if (g[0] === 0x2002) return ipv4Of(g[1], g[2]);
  return undefined;
}

/** True for loopback, private, link-local and other addresses that are not on the public internet. */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return NON_PUBLIC.check(bare, 'ipv4');
  if (family !== 6) return true; // not an address at all: never treat it as safe
  const v4 = embeddedIpv4(bare);
  if (v4 !== undefined) return NON_PUBLIC.check(v4, 'ipv4');
  return NON_PUBLIC.check(ipv6Groups(bare).map((group) => group.toString(16)).join(':'), 'ipv6');
}

/** Names that resolve to this machine or the local link whatever DNS says (RFC 6761, mDNS). */
function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name.endsWith('.local') || name.endsWith('.internal');
}

/** The checks that need no network: scheme, shape, and literal or well-known local targets. */
export function checkCallbackUrl(raw: string, policy: CallbackUrlPolicy): CallbackUrlCheck {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'must use http or https' };
  if (policy.requireHttps && url.protocol !== 'https:') return { ok: false, reason: 'must use https' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry a user name or password' };
  if (url.hash) return { ok: false, reason: 'must not have a #fragment' };
  if (!policy.allowPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0 && isNonPublicAddress(host)) {
      return { ok: false, reason: `points at ${host}, a loopback, private or link-local address` };
    }
    if (isIP(host) === 0 && isLocalName(host)) return { ok: false, reason: `points at ${host}, a local name` };
  }
  return { ok: true, url };
}

/** Thrown through the connection when DNS answers with an address the policy refuses. */
export class NonPublicCallbackAddressError extends Error {
  override readonly name = 'NonPublicCallbackAddress';
  readonly code = 'ENONPUBLIC';
}

/**
 * A `lookup` for http.request / net.connect that refuses non-public answers. The socket connects to exactly the
 * addresses checked here, so there is no window between the check and the connection for DNS to change.
 */
export function guardedLookup(policy: CallbackUrlPolicy, resolve: LookupFunction = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, answers) => {
      if (error) return callback(error, []);
      const addresses = answers as LookupAddress[];
      const refused = policy.allowPrivate ? undefined : addresses.find((answer) => isNonPublicAddress(answer.address));
      if (refused) {
        return callback(
          new NonPublicCallbackAddressError(`${hostname} resolves to ${refused.address}, a loopback, private or link-local address`),
          [],
        );
      }
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no addresses`), { code: 'ENOTFOUND' }), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}
