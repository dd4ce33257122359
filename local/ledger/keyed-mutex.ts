/**
 * Runs tasks one at a time per key, in arrival order, while different keys proceed in parallel.
 * Check-then-write on an idempotency key spans an awaited fsync, so without this two simultaneous
 * first requests could both see "no entry yet" and post twice. In-process is enough: the service is
 * a single process.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async runExclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => done);
    this.tails.set(key, tail);
    try {
      await previous;
      return await task();
    } finally {
      release();
      // Forget the key once nobody queued behind us, so the map does not grow with every key ever seen.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
