import { Type } from '@sinclair/typebox';
import { json } from '../settings/json-setting';
import { Secret } from '../secret';

/** A customer of the API; every credential is a Secret so a logged config cannot leak one. */
export interface Tenant {
  id: string;
  apiKey: Secret;
  reviewerToken: Secret;
  webhookSecret: Secret;
  defaultCallbackUrl?: string;
}

const credential = Type.String({ minLength: 1 });

/** The tenant ids end up in workflow ids and search attributes, hence the narrow alphabet. */
const tenantsSchema = Type.Array(
  Type.Object(
    {
      id: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$' }),
      apiKey: credential,
      reviewerToken: credential,
      webhookSecret: credential,
      defaultCallbackUrl: Type.Optional(Type.String({ minLength: 1 })),
    },
    // A misspelt optional field (defaultCallbackURL) would otherwise be dropped without a word.
    { additionalProperties: false },
  ),
  { minItems: 1 },
);

export const tenantsType = json(tenantsSchema, {
  description: 'array of {id, apiKey, reviewerToken, webhookSecret, defaultCallbackUrl?}',
  secret: true,
  map: (tenants): Tenant[] =>
    tenants.map(({ id, apiKey, reviewerToken, webhookSecret, defaultCallbackUrl }) => ({
      id,
      apiKey: new Secret(apiKey),
      reviewerToken: new Secret(reviewerToken),
      webhookSecret: new Secret(webhookSecret),
      ...(defaultCallbackUrl ? { defaultCallbackUrl } : {}),
    })),
});

/** The local stack's demo tenant (DESIGN.md §4). Never used in production: real keys come from SLOWLANE_TENANTS. */
export const DEMO_TENANTS_JSON = JSON.stringify([
  {
    id: 'demo',
    apiKey: 'demo-key',
    reviewerToken: 'demo-reviewer-token',
    webhookSecret: 'whsec_ZGVtby13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5',
  },
]);
