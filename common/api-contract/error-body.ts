import { type Static, Type } from '@sinclair/typebox';
import { closed } from './schema-kit';

/** Every error answer: a stable code to branch on and a message saying what to do. */
export const ErrorBody = closed({
  error: closed({
    code: Type.String({ description: 'Stable; branch on this, not on the message.', examples: ['invalid_request', 'not_found'] }),
    message: Type.String({ description: 'What went wrong and what to do about it.' }),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Machine-readable specifics, e.g. `field`, `errors`, `jobId`, `status`.' }),
    ),
  }),
});
export type ErrorBody = Static<typeof ErrorBody>;
