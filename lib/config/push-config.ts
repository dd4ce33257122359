import { isKeyPair, p256PublicKeyProblem } from '../push/p256-keys';
import type { Secret } from '../secret';
import type { SettingsReader } from '../settings/read-settings';
import type { Deployment, SettingValues } from '../settings/setting';
import type { pushArea } from './push-settings';

export interface VapidKeys {
  publicKey: string;
  privateKey: Secret;
  subject: string;
}

export interface PushConfig {
  enabled: boolean;
  /** Present exactly when `enabled`. */
  vapid?: VapidKeys;
  maxSubscriptionsPerTenant: number;
  ttlMs: number;
  /** `http:` endpoints on loopback are taken (the local stand-in); always false in production. */
  allowLoopbackHttp: boolean;
}

/**
 * Fails closed: push enabled without a whole, matching VAPID key pair would sign JWTs every push service refuses,
 * attempt after attempt, so the process refuses to start instead. Loopback http is a local-stack allowance only.
 */
export function pushConfigOf(values: SettingValues<typeof pushArea.settings>, deployment: Deployment, reader: SettingsReader): PushConfig {
  const { enabled, vapidPublicKey, vapidPrivateKey, vapidSubject } = values;
  // Production takes https endpoints only, whatever the setting says: a local allowance must not travel with a copied env.
  const allowLoopbackHttp = values.allowLoopbackHttp && deployment !== 'production';
  const base = { enabled, maxSubscriptionsPerTenant: values.maxSubscriptionsPerTenant, ttlMs: values.ttl, allowLoopbackHttp };
  if (!enabled) return base;
  if (!vapidPublicKey || !vapidPrivateKey || !vapidSubject) {
    reader.report('PUSH_ENABLED=true needs VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (`npx web-push generate-vapid-keys` makes a pair)');
    return base;
  }
  const problem = p256PublicKeyProblem(vapidPublicKey);
  if (problem) reader.report(`VAPID_PUBLIC_KEY ${problem}`);
  else if (!isKeyPair(vapidPublicKey, vapidPrivateKey.reveal())) reader.report('VAPID_PRIVATE_KEY is not the private key of VAPID_PUBLIC_KEY');
  if (!/^(mailto:.+@.+|https:\/\/.+)$/.test(vapidSubject)) reader.report('VAPID_SUBJECT must be a mailto: or https: URL');
  return { ...base, vapid: { publicKey: vapidPublicKey, privateKey: vapidPrivateKey, subject: vapidSubject } };
}
