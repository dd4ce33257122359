import { JOB_STEPS, type JobError, type JobStep } from './job';
import { JOB_TYPE_DEFINITIONS, type RegisteredStep } from './job-types/registry';

/**
 * The steps that run as an activity. Each step is named after its activity, whose type name is recorded in every
 * history, so a step name found in a log line, a pending activity or a reset point needs no translation.
 */
export const ACTIVITY_STEPS: readonly RegisteredStep[] = [...new Set(JOB_TYPE_DEFINITIONS.flatMap((definition) => definition.steps))];

export type ActivityStep = RegisteredStep;

export function isActivityStep(name: string): name is ActivityStep {
  return (ACTIVITY_STEPS as readonly string[]).includes(name);
}

/**
 * The names jobs started before the steps took their activities' names still carry in their JobStep search
 * attribute, memo and results. Dead letters wait up to 14 days, so these stay readable at least that long.
 */
const FORMER_STEP_NAMES: Readonly<Record<string, ActivityStep>> = {
  classify: 'classifyDocument',
  extractFields: 'extractInvoiceFields',
  postToLedger: 'postInvoiceToLedger',
};

/** The step a recorded name stands for, former names included; undefined for anything else. */
export function stepNamed(recorded: unknown): JobStep | undefined {
  if (typeof recorded !== 'string') return undefined;
  if (Object.hasOwn(FORMER_STEP_NAMES, recorded)) return FORMER_STEP_NAMES[recorded];
  return JOB_STEPS.find((step) => step === recorded);
}

/** Every name a step may be recorded under, for visibility queries that must also find older jobs. */
export function recordedNamesOf(step: JobStep): string[] {
  return [step, ...Object.keys(FORMER_STEP_NAMES).filter((former) => FORMER_STEP_NAMES[former] === step)];
}

/** A recorded error (memo, dead letter) with its step under its current name. */
export function errorWithCurrentStep(
  error: (Omit<JobError, 'step'> & { step?: string }) | undefined,
): JobError | undefined {
  if (!error) return undefined;
  const { step, ...rest } = error;
  const current = stepNamed(step);
  return current ? { ...rest, step: current } : rest;
}
