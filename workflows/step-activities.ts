import type { InvoiceActivities } from '../activities';
import type { JobStep } from '../common/job';

/** The activity that runs each step; replay resets and activity logs translate between the two names. */
export const STEP_ACTIVITIES = {
  extractText: 'extractText',
  classify: 'classifyDocument',
  extractFields: 'extractInvoiceFields',
  postToLedger: 'postInvoiceToLedger',
} as const satisfies Partial<Record<JobStep, keyof InvoiceActivities>>;

export type ActivityStep = keyof typeof STEP_ACTIVITIES;

export function stepOfActivity(activityType: string): ActivityStep | undefined {
  return (Object.keys(STEP_ACTIVITIES) as ActivityStep[]).find((step) => STEP_ACTIVITIES[step] === activityType);
}
