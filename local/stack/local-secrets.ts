import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateVAPIDKeys } from 'web-push';

/**
 * The local stack's credentials. Nothing in the product has a default secret any more (lib/config refuses to start
 * without them), so `npm start`, `npm test` and the benchmarks generate their own: random, strong, and kept in the
 * data folder so a restarted `npm start` (and the reviewer signed in to it) keeps its keys.
 */
export interface LocalPerson {
  id: string;
  token: string;
}

export interface LocalTenant {
  id: string;
  apiKey: string;
  webhookSecret: string;
  reviewers: LocalPerson[];
}

export interface LocalSecrets {
  tenants: LocalTenant[];
  operators: LocalPerson[];
  pageTokenSecret: string;
  /** The VAPID pair Web Push is signed with; absent in a file kept from before Web Push (added on the next load). */
  vapid?: { publicKey: string; privateKey: string };
}

/** Local mode, said explicitly: loopback defaults, and webhooks to the local receivers on 127.0.0.1. */
export const LOCAL_MODE_ENV: Readonly<Record<string, string>> = {
  SLOWLANE_ENV: 'local',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
};

/**
 * Web Push on in `npm start` and `npm test` (not in the benchmarks, whose jobs would each start a push delivery),
 * with the loopback http of the push-service stand-in (local/push-service) allowed.
 */
export const LOCAL_PUSH_ENV: Readonly<Record<string, string>> = {
  PUSH_ENABLED: 'true',
  PUSH_ALLOW_LOOPBACK_HTTP: 'true',
  VAPID_SUBJECT: 'mailto:ops@slowlane.example',
};

const FILE_NAME = 'local-secrets.json';

/** 32 random characters after a readable prefix, so a leaked one says where it came from. */
const token = (prefix: string): string => `${prefix}_${randomBytes(24).toString('base64url')}`;

/** Two reviewers per tenant, so a test (or a person trying the page) can see that each decision names its own. */
export function generateLocalSecrets(tenantIds: readonly string[] = ['demo']): LocalSecrets {
  return {
    tenants: tenantIds.map((id) => ({
      id,
      apiKey: token(`sl_${id}`),
      webhookSecret: `whsec_${randomBytes(32).toString('base64')}`,
      reviewers: ['ada', 'grace'].map((name) => ({ id: `${name}@${id}.example`, token: token(`slr_${id}`) })),
    })),
    operators: [{ id: 'ops@slowlane.example', token: token('slo') }],
    pageTokenSecret: randomBytes(32).toString('base64url'),
    vapid: generateVAPIDKeys(),
  };
}

/** The product settings that carry them. */
export function localSecretsEnv(secrets: LocalSecrets): Record<string, string> {
  return {
    SLOWLANE_TENANTS: JSON.stringify(secrets.tenants),
    SLOWLANE_OPERATORS: JSON.stringify(secrets.operators),
    API_PAGE_TOKEN_SECRET: secrets.pageTokenSecret,
    ...(secrets.vapid ? { VAPID_PUBLIC_KEY: secrets.vapid.publicKey, VAPID_PRIVATE_KEY: secrets.vapid.privateKey } : {}),
  };
}

/** `<dataDir>/local-secrets.json` (readable by its owner only), created on first use with the tenants asked for. */
export async function loadOrCreateLocalSecrets(dataDir: string, tenantIds: readonly string[] = ['demo']): Promise<LocalSecrets> {
  const path = join(dataDir, FILE_NAME);
  const kept = await readFile(path, 'utf8').then(
    (text) => JSON.parse(text) as LocalSecrets,
    () => undefined,
  );
  const keptTenants = kept && tenantIds.every((id) => kept.tenants.some((tenant) => tenant.id === id));
  if (kept && keptTenants && kept.vapid) return kept;
  // A file from before Web Push keeps its keys (a signed-in reviewer stays signed in) and gains a VAPID pair.
  const secrets = kept && keptTenants ? { ...kept, vapid: generateVAPIDKeys() } : generateLocalSecrets(tenantIds);
  await writeFile(path, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}
