/**
 * At most `limit()` holders at once, the rest queued in arrival order: pocketsphinx takes a core per run, and the
 * simulator shares its machine with the stack it serves.
 */
export class ProcessSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: () => number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit()) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      if (this.running < this.limit()) this.waiting.shift()?.();
    }
  }
}
