/**
 * At most `limit()` holders at once, the rest queued in arrival order: pocketsphinx takes a core per run, and the
 * simulator shares its machine with the stack it serves.
 */
export class ProcessSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: () => number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    // A freed slot passes straight to the first in line, so a newcomer cannot slip in between.
    if (this.running >= this.limit()) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.running <= this.limit() ? this.waiting.shift() : undefined;
      if (next) next();
      else this.running -= 1;
    }
  }
}
