/**
 * Ids by expiry, earliest first (a binary heap): the in-process spend store expires only the holds that are due,
 * in O(log n) each, as the Redis script does with its sorted set. A removed id stays in the heap until it comes
 * due; `isCurrent` tells the caller whether the entry still stands.
 */
export class ExpiryQueue {
  private readonly heap: Array<{ id: string; at: number }> = [];

  push(id: string, at: number): void {
    const heap = this.heap;
    heap.push({ id, at });
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.at <= heap[i]!.at) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  /** Removes and yields every entry due at `now` (expiry ≤ now). */
  *due(now: number): Generator<{ id: string; at: number }> {
    while (this.heap.length > 0 && this.heap[0]!.at <= now) yield this.pop();
  }

  private pop(): { id: string; at: number } {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const [left, right] = [2 * i + 1, 2 * i + 2];
        let least = i;
        if (left < heap.length && heap[left]!.at < heap[least]!.at) least = left;
        if (right < heap.length && heap[right]!.at < heap[least]!.at) least = right;
        if (least === i) break;
        [heap[least], heap[i]] = [heap[i]!, heap[least]!];
        i = least;
      }
    }
    return top;
  }
}
