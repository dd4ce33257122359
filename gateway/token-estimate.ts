/**
 * Input tokens of a call, estimated before it goes out: characters ÷ characters-per-token, calibrated per model
 * from each answer's real `usage.input_tokens`. Chosen over `count_tokens` because that is one more request per
 * call — with its own rate limit and latency — to learn a number the answer tells us anyway, and the budget settles
 * every call to its real usage, so an estimate that is a little off costs nothing lasting.
 */

/** Before the first answer: below the ~4 characters per token of English text, so first estimates err high. */
const INITIAL_CHARS_PER_TOKEN = 3.5;
/** Weight of the newest observation: enough to follow a change of documents, not one odd call. */
const SMOOTHING = 0.3;

export class InputTokenEstimator {
  private readonly charsPerToken = new Map<string, number>();

  estimate(model: string, characters: number): number {
    return Math.max(1, Math.ceil(characters / (this.charsPerToken.get(model) ?? INITIAL_CHARS_PER_TOKEN)));
  }

  learn(model: string, characters: number, inputTokens: number): void {
    if (inputTokens <= 0 || characters <= 0) return;
    const observed = characters / inputTokens;
    const previous = this.charsPerToken.get(model);
    this.charsPerToken.set(model, previous === undefined ? observed : previous + SMOOTHING * (observed - previous));
  }
}
