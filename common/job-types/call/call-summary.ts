import { type Static, Type } from '@sinclair/typebox';
import { closed, stringEnum } from '../../api-contract/schema-kit';

export const CALL_OUTCOMES = ['resolved', 'follow_up', 'escalated', 'unresolved'] as const;

/**
 * What the model makes of a call, and what a reviewer edits: also the model tool's schema. `owner` is who said they
 * would do it, as the transcript names them, or null when nobody took it on; `type: [string, null]` (not `anyOf`)
 * so the reviewer form shows it as an ordinary field.
 */
export const CallSummary = closed({
  summary: Type.String({ minLength: 1, description: 'What the call was about and how it went, in a few sentences.' }),
  actionItems: Type.Array(
    closed({
      text: Type.String({ minLength: 1, description: 'What is to be done.' }),
      owner: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'Who took it on, as the call names them; null when nobody did.' }),
    }),
  ),
  outcome: stringEnum(CALL_OUTCOMES, { description: 'How the call ended for the caller.' }),
});
export type CallSummary = Static<typeof CallSummary>;
