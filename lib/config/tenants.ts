import { Type } from '@sinclair/typebox';
import { json, jsonPath } from '../settings/json-setting';
import { weakSecretReason } from '../settings/secret-strength';
import type { Problem } from '../settings/setting';
import { Secret } from '../secret';
import {
  type LabelledCredential,
  REPEATED_CREDENTIAL,
  repeatedCredentials,
  type Person,
  personProblems,
  personSchema,
  tokenDigest,
  toPerson,
} from './credentials';

/** A customer of the API; every credential is a Secret or a digest so a logged config cannot leak one. */
export interface Tenant {
  id: string;
  apiKey: Secret;
  webhookSecret: Secret;
  /** The tenant's reviewers, each with a token of their own (people signing in through OIDC need no entry). */
  reviewers: Person[];
  defaultCallbackUrl?: string;
  /** The tenant's weight among tenants with work waiting in the same queue (Temporal fairness; default 1). */
  fairnessWeight?: number;
}

/** The tenant ids end up in workflow ids and search attributes, hence the narrow alphabet. */
const tenantsSchema = Type.Array(
  Type.Object(
    {
      id: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$' }),
      apiKey: Type.String({ minLength: 1 }),
      webhookSecret: Type.String({ pattern: '^whsec_[A-Za-z0-9+/=]+$' }),
      reviewers: Type.Optional(Type.Array(personSchema)),
      defaultCallbackUrl: Type.Optional(Type.String({ minLength: 1 })),
      fairnessWeight: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000 })),
    },
    // A misspelt optional field (defaultCallbackURL) would otherwise be dropped without a word.
    { additionalProperties: false },
  ),
  { minItems: 1 },
);

type TenantEntry = (typeof tenantsSchema)['static'][number];

/** The env name, for the labels of the duplicate check (the reader adds it to path problems itself). */
const ENV = 'SLOWLANE_TENANTS';

function tenantProblems(tenants: readonly TenantEntry[]): Problem[] {
  const problems: Problem[] = [];
  const ids = new Set<string>();
  tenants.forEach((tenant, index) => {
    if (ids.has(tenant.id))
      problems.push({ path: jsonPath([index, 'id']), message: `repeats the tenant id "${tenant.id}"` });
    ids.add(tenant.id);
    const weakKey = weakSecretReason(tenant.apiKey);
    if (weakKey) problems.push({ path: jsonPath([index, 'apiKey']), message: weakKey });
    // Standard Webhooks secrets are `whsec_` and the base64 of the key; the key is what must be strong.
    const weakWebhook = weakSecretReason(tenant.webhookSecret.replace(/^whsec_/, ''));
    if (weakWebhook) problems.push({ path: jsonPath([index, 'webhookSecret']), message: weakWebhook });
    problems.push(...personProblems(tenant.reviewers ?? [], [index, 'reviewers']));
  });
  // A webhook secret signs rather than authenticates, so it is not among the credentials that must differ.
  for (const { label, earlier } of repeatedCredentials(tenantCredentials(tenants))) {
    problems.push({ path: label, message: `is the same credential as ${ENV}${earlier}; ${REPEATED_CREDENTIAL}` });
  }
  return problems;
}

function tenantCredentials(tenants: readonly TenantEntry[]): LabelledCredential[] {
  return tenants.flatMap((tenant, index) => [
    { label: jsonPath([index, 'apiKey']), sha256: tokenDigest(tenant.apiKey) },
    ...(tenant.reviewers ?? []).map((reviewer, at) => ({
      label: jsonPath([index, 'reviewers', at]),
      sha256: toPerson(reviewer).tokenSha256,
    })),
  ]);
}

/** Every API key and reviewer token of the tenants, for the check against the operators' tokens. */
export function credentialsOf(tenants: readonly Tenant[]): LabelledCredential[] {
  return tenants.flatMap((tenant, index) => [
    { label: `${ENV}${jsonPath([index, 'apiKey'])}`, sha256: tokenDigest(tenant.apiKey.reveal()) },
    ...tenant.reviewers.map((reviewer, at) => ({
      label: `${ENV}${jsonPath([index, 'reviewers', at])}`,
      sha256: reviewer.tokenSha256,
    })),
  ]);
}

export const tenantsType = json(tenantsSchema, {
  description:
    "array of {id, apiKey, webhookSecret, reviewers?: [{id, token} or {id, tokenSha256}], defaultCallbackUrl?, fairnessWeight?}; keys, tokens and the webhook key ≥ 32 random characters, none repeated; `fairnessWeight` (default 1): the tenant's share of a queue against other tenants with work waiting in it is its weight ÷ their sum (docs/gateway.md#fair-shares-between-tenants)",
  secret: true,
  check: tenantProblems,
  map: (tenants): Tenant[] =>
    tenants.map(({ id, apiKey, webhookSecret, reviewers, defaultCallbackUrl, fairnessWeight }) => ({
      id,
      apiKey: new Secret(apiKey),
      webhookSecret: new Secret(webhookSecret),
      reviewers: (reviewers ?? []).map(toPerson),
      ...(defaultCallbackUrl ? { defaultCallbackUrl } : {}),
      ...(fairnessWeight !== undefined ? { fairnessWeight } : {}),
    })),
});
