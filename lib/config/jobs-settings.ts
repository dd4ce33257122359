import { setting, type SettingsArea } from '../settings/setting';
import { duration, int, number } from '../settings/setting-types';

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
    deadLetterTimeoutMs: setting({
      env: 'DEAD_LETTER_TIMEOUT',
      type: duration(),
      default: '14d',
      doc: 'how long a parked job waits for an operator',
    }),
  },
} satisfies SettingsArea;
