/**
 * Carries items to `send` in batches, with at most one send in flight per key: what arrives while a send is in
 * flight goes in the next one (at most `maxItems` each). A quiet caller waits for nothing it would not have waited
 * for alone; a busy process sends once per round trip however many callers it has. Each caller's promise settles
 * with the send that carried its item, so a failed send fails exactly the callers whose items it carried.
 */
export function coalescedSends<T>(
  send: (key: string, items: T[]) => Promise<void>,
  maxItems: number,
): (key: string, item: T) => Promise<void> {
  if (!Number.isInteger(maxItems) || maxItems < 1)
    throw new RangeError(`maxItems must be a positive integer, not ${maxItems}`);
  const queues = new Map<string, Array<Waiting<T>>>();

  async function drain(key: string, waiting: Array<Waiting<T>>): Promise<void> {
    while (waiting.length > 0) {
      const carried = waiting.splice(0, maxItems);
      try {
        await send(
          key,
          carried.map((one) => one.item),
        );
        for (const one of carried) one.resolve();
      } catch (error) {
        for (const one of carried) one.reject(error);
      }
    }
    queues.delete(key);
  }

  return (key, item) =>
    new Promise<void>((resolve, reject) => {
      const waiting = queues.get(key);
      if (waiting) {
        waiting.push({ item, resolve, reject });
        return;
      }
      const fresh = [{ item, resolve, reject }];
      queues.set(key, fresh);
      void drain(key, fresh);
    });
}

interface Waiting<T> {
  item: T;
  resolve(): void;
  reject(error: unknown): void;
}
