import { createHash, timingSafeEqual } from 'node:crypto';
import { inspect } from 'node:util';

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** A value that cannot leak through JSON.stringify, template strings or console.log; call reveal() to use it. */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  /**
   * Whether `given` is this secret, in time that depends on neither: comparing fixed-length digests hides the
   * secret's length too, which comparing the strings themselves (or checking their lengths first) would not.
   */
  matches(given: string): boolean {
    return timingSafeEqual(digest(given), digest(this.#value));
  }
  toJSON(): string {
    return '[redacted]';
  }
  toString(): string {
    return '[redacted]';
  }
  [inspect.custom](): string {
    return 'Secret([redacted])';
  }
}
