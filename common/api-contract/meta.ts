import { type Static, Type } from '@sinclair/typebox';
import { closed, stringEnum } from './schema-kit';

export const CALLER_ROLES = ['api', 'reviewer'] as const;
export type CallerRole = (typeof CALLER_ROLES)[number];

/** How a caller proved who they are: the tenant's API key, a person's own token, an OIDC identity token. */
export const SIGN_IN_PROOFS = ['api-key', 'token', 'oidc'] as const;
export type SignInProof = (typeof SIGN_IN_PROOFS)[number];

/** `GET /review/session`: who the reviewer page is signed in as. */
export const ReviewSession = closed({
  tenantId: Type.String(),
  role: stringEnum(CALLER_ROLES),
  reviewer: Type.String({ description: 'Who is signed in: the identity recorded with their decisions.' }),
  via: stringEnum(SIGN_IN_PROOFS),
  confidenceThreshold: Type.Number({ minimum: 0, maximum: 1 }),
});
export type ReviewSession = Static<typeof ReviewSession>;

/** `/healthz` and `/readyz`. */
export const Health = closed({ ok: Type.Boolean() });
export type Health = Static<typeof Health>;
