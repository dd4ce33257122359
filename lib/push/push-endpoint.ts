import { type CallbackUrlPolicy, checkCallbackUrl } from '../callback-url';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The policy a push endpoint's delivery connects under: our workers POST to it as to a callback URL, so the same
 * guard against reaching our own network applies (checked again on the connection, lib/callback-url.ts). Push
 * services are public and speak https only (RFC 8030 §8); the local stand-in on loopback http is an allowance.
 */
export function pushEndpointPolicy(policy: CallbackUrlPolicy, allowLoopbackHttp: boolean, endpoint: URL): CallbackUrlPolicy {
  const loopbackHttp = allowLoopbackHttp && endpoint.protocol === 'http:' && LOOPBACK_HOSTS.has(endpoint.hostname);
  return loopbackHttp ? { allowPrivate: true, requireHttps: false } : { ...policy, requireHttps: true };
}

export type PushEndpointCheck = { ok: true; url: URL; policy: CallbackUrlPolicy } | { ok: false; reason: string };

/** Whether we may send pushes to `raw`, and under which connection policy. */
export function checkPushEndpoint(raw: string, policy: CallbackUrlPolicy, allowLoopbackHttp: boolean): PushEndpointCheck {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not an absolute URL' };
  }
  const endpointPolicy = pushEndpointPolicy(policy, allowLoopbackHttp, parsed);
  const checked = checkCallbackUrl(raw, endpointPolicy);
  if (!checked.ok) return checked;
  return { ok: true, url: checked.url, policy: endpointPolicy };
}
