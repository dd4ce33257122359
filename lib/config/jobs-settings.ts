import { setting, type SettingsArea } from '../settings/setting';
import { Type } from '@sinclair/typebox';
import { json } from '../settings/json-setting';
import { duration, int, number } from '../settings/setting-types';

const Band = Type.Object(
  { approveBelow: Type.Number({ minimum: 0, maximum: 1 }), declineFrom: Type.Number({ minimum: 0, maximum: 1 }) },
  { additionalProperties: false },
);

export const jobsArea = {
  title: 'Jobs',
  settings: {
    confidenceThreshold: setting({
      env: 'CONFIDENCE_THRESHOLD',
      type: number({ min: 0, max: 1 }),
      default: '0.9',
      doc: 'below it (weakest required field) a person reviews',
    }),
    reviewTimeoutMs: setting({
      env: 'REVIEW_TIMEOUT',
      type: duration(),
      default: '48h',
      doc: 'how long a job waits for a reviewer',
    }),
    maxExtractionTries: setting({
      env: 'MAX_EXTRACTION_TRIES',
      type: int({ min: 1, max: 10 }),
      default: '3',
      doc: 'schema-invalid model answers asked again before review',
    }),
    reviewBands: setting({
      env: 'JOB_REVIEW_BANDS',
      type: json(Type.Record(Type.String(), Band), {
        description: '{ "<job type>": { "approveBelow": 0..1, "declineFrom": 0..1 } }',
        map: (bands): Record<string, { approveBelow: number; declineFrom: number }> => bands,
      }),
      default: '{}',
      defaultDoc: 'each score-band type’s own band (`order.score`: approve below 0.3, decline from 0.7)',
      doc: 'the grey zone of types reviewed by score: a score in [approveBelow, declineFrom) goes to a person',
    }),
    deadLetterTimeoutMs: setting({
      env: 'DEAD_LETTER_TIMEOUT',
      type: duration(),
      default: '14d',
      doc: 'how long a parked job waits for an operator',
    }),
  },
} satisfies SettingsArea;
