import { type Static, Type } from '@sinclair/typebox';
import { closed, stringEnum } from './schema-kit';

export const CALLER_ROLES = ['api', 'reviewer'] as const;
export type CallerRole = (typeof CALLER_ROLES)[number];

/** `GET /review/session`: who the reviewer page is signed in as. */
export const ReviewSession = closed({
  tenantId: Type.String(),
  role: stringEnum(CALLER_ROLES),
  reviewer: Type.String({ description: 'The default reviewer name recorded with decisions.' }),
  confidenceThreshold: Type.Number({ minimum: 0, maximum: 1 }),
});
export type ReviewSession = Static<typeof ReviewSession>;

/** `/healthz` and `/readyz`. */
export const Health = closed({ ok: Type.Boolean() });
export type Health = Static<typeof Health>;
