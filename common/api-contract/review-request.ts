import { type Static, Type } from '@sinclair/typebox';
import { ReviewFields } from './job-types';
import { closed, ref } from './schema-kit';

const reviewer = Type.Optional(
  Type.String({
    description:
      'Leave it out: the reviewer recorded is the identity the credential authenticates (a reviewer’s id, the OIDC `sub`, or `api-key`). When given it must be that identity, else 403 `not_you`.',
  }),
);

export const ReviewApproval = closed({
  decision: Type.Literal('approve'),
  fields: Type.Optional(ref('ReviewFields', ReviewFields)),
  reviewer,
});
export const ReviewRejection = closed({
  decision: Type.Literal('reject'),
  // At least one character that is not white space: a blank reason explains nothing.
  reason: Type.String({ pattern: '\\S', description: 'Why; trimmed and cut to 1,000 characters.' }),
  reviewer,
});

/**
 * The body of `POST /jobs/:id/review`. A `oneOf` discriminated by `decision`, so a validator reports the problems of
 * the decision that was sent rather than of every alternative.
 */
export const ReviewRequest = Type.Unsafe<Static<typeof ReviewApproval> | Static<typeof ReviewRejection>>({
  type: 'object',
  oneOf: [ref('ReviewApproval', ReviewApproval), ref('ReviewRejection', ReviewRejection)],
  discriminator: { propertyName: 'decision' },
});
export type ReviewRequest = Static<typeof ReviewRequest>;
