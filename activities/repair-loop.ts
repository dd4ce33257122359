import { ConstrainedAnswerInvalidError } from '../common/errors';
import type { Usage } from '../common/job';
import { addUsage } from '../common/usage-sum';
import type { ValidationResult } from '../common/validation';
import type { RepairRequest, ToolCallResult } from '../gateway/model-call';
import { usageOfCall } from './usage';

/** The validator's errors the model is shown: the first few, each short, so a wild answer cannot bloat the prompt. */
const MAX_ERRORS_SHOWN = 8;
const MAX_ERROR_CHARACTERS = 200;
/** The raw answer a failure carries: enough to see what went wrong, small enough for a Temporal failure. */
const MAX_RAW_OUTPUT_CHARACTERS = 2_000;

export interface RepairedAnswer<T> {
  /** The last answer the model gave, valid or not. */
  call: ToolCallResult;
  checked: ValidationResult<T>;
  /** Every call of the loop, summed: each one was billed. */
  usage: Usage;
  /** Repair calls answered (0 when the first answer was valid). */
  repairs: number;
  /** Why the loop stopped early: a repair call that failed. */
  repairError?: unknown;
}

/** The validator's errors, briefly: at most eight, each cut to 200 characters, and how many more there were. */
export function briefErrors(errors: readonly string[]): string[] {
  const shown = errors
    .slice(0, MAX_ERRORS_SHOWN)
    .map((error) => (error.length > MAX_ERROR_CHARACTERS ? `${error.slice(0, MAX_ERROR_CHARACTERS - 1)}…` : error));
  return errors.length > MAX_ERRORS_SHOWN ? [...shown, `(${errors.length - MAX_ERRORS_SHOWN} more errors)`] : shown;
}

/**
 * Asks the model, checks its answer and, while it fails the schema and tries remain, asks again showing it its
 * own answer and the validator's errors. Inside one activity, so workflows issue the same commands as before
 * and recorded histories replay unchanged. A repair call that fails (budget, provider) ends the loop with the
 * last answer: the caller treats it as it treated an invalid answer before the loop existed. An answer the provider
 * constrained to the schema (`mode: 'constrained'`) that still fails it is not repaired: it throws
 * ConstrainedAnswerInvalidError, since asking again under the same constraint gets the same answer.
 */
export async function answerWithRepairs<T>(input: {
  ask: (repair: RepairRequest | undefined, moreCallsFollow: boolean) => Promise<ToolCallResult>;
  validate: (toolInput: unknown) => ValidationResult<T>;
  repairTries: number;
}): Promise<RepairedAnswer<T>> {
  let call = await input.ask(undefined, false);
  let usage = usageOfCall(call.usage);
  let checked = input.validate(call.toolInput);
  let repairs = 0;
  let repairError: unknown;
  if (!checked.ok && call.mode === 'constrained') throw constrainedAnswerInvalid(call, checked.errors, usage);
  while (!checked.ok && repairs < input.repairTries) {
    const repair: RepairRequest = { previousInput: call.toolInput, errors: briefErrors(checked.errors) };
    try {
      call = await input.ask(repair, repairs + 1 < input.repairTries);
    } catch (error) {
      repairError = error;
      break;
    }
    repairs += 1;
    usage = addUsage(usage, usageOfCall(call.usage));
    checked = input.validate(call.toolInput);
    if (!checked.ok && call.mode === 'constrained') throw constrainedAnswerInvalid(call, checked.errors, usage);
  }
  return { call, checked, usage, repairs, ...(repairError !== undefined ? { repairError } : {}) };
}

function constrainedAnswerInvalid(call: ToolCallResult, errors: readonly string[], usage: Usage): ConstrainedAnswerInvalidError {
  const raw = typeof call.toolInput === 'string' ? call.toolInput : JSON.stringify(call.toolInput) ?? 'undefined';
  return new ConstrainedAnswerInvalidError(
    `the answer constrained to the schema still failed it (stop reason ${call.stopReason ?? 'none'}): ${briefErrors(errors).join('; ')}`,
    {
      details: {
        // Billed all the same: the job counts it (workflows/job-run.ts, failureDetailsOf).
        billedUsage: usage,
        rawOutput: raw.slice(0, MAX_RAW_OUTPUT_CHARACTERS),
        ...(call.requestId ? { requestId: call.requestId } : {}),
      },
    },
  );
}
