import { ApplicationFailure, TemporalFailure, TimeoutFailure } from '@temporalio/workflow';

/** Why a delivery was given up, for its counter: the innermost application failure's type (the activity's error class), else `Timeout`. */
export function givenUpType(error: unknown): string {
  let type = 'Unknown';
  for (let cause: unknown = error; cause instanceof TemporalFailure; cause = cause.cause) {
    if (cause instanceof ApplicationFailure && cause.type) type = cause.type;
    else if (cause instanceof TimeoutFailure) type = 'Timeout';
  }
  return type;
}
