import { ModelOutputInvalidError } from '../common/errors';

/**
 * What a failed attempt heartbeats (beside OutageAttempts) so the next attempt knows its answer was refused: a
 * batch entry's answer is paid for once, and a retry takes it again unless an attempt found it wrong.
 */
export interface AnswerRefusals {
  answerRefused: true;
}

/**
 * Whether an attempt found the model's answer wrong, this one or one before it (the flag the previous attempt left
 * in its last heartbeat's details). Only ModelOutputInvalidError is retried for another answer; the other answer
 * errors (a refusal, a constrained answer that broke its schema) are not retried at all.
 */
export function answerRefusedAfter(error: unknown, heartbeatDetails: unknown): boolean {
  return error instanceof ModelOutputInvalidError || answerRefusedBefore(heartbeatDetails);
}

/** Whether an earlier attempt of this activity found the model's answer wrong. */
export function answerRefusedBefore(heartbeatDetails: unknown): boolean {
  return (heartbeatDetails as Partial<AnswerRefusals> | undefined)?.answerRefused === true;
}
