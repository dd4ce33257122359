import { type Static, Type } from '@sinclair/typebox';
import { closed, ref } from './schema-kit';

const seconds = Type.Number({ minimum: 0 });

/** One timed line of a call, as common/job-types/call/transcript.ts's CallSegment stores it. */
export const CallTranscriptSegment = closed({
  start: seconds,
  end: seconds,
  text: Type.String(),
  speaker: Type.Optional(Type.String({ description: 'Who speaks, when the provider tells speakers apart.' })),
  confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'The provider’s confidence in the line, when it gives one.' })),
});

/** What `GET /jobs/{id}/transcript` answers: the joined transcript, and the line below which a segment counts as heard poorly. */
export const CallTranscript = closed({
  durationSeconds: seconds,
  segments: Type.Array(ref('CallTranscriptSegment', CallTranscriptSegment)),
  reviewConfidence: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1, description: 'CALL_REVIEW_CONFIDENCE as the job was joined with: segments below it were heard poorly (the reviewer page marks them).' }),
  ),
});
export type CallTranscript = Static<typeof CallTranscript>;
