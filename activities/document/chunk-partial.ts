import { SlowlaneError } from '../../common/errors';
import type { Usage } from '../../common/job';
import { emptyUsage } from '../../common/job-types/document/document-job';
import { addUsage } from '../../common/usage-sum';
import { type ObjectStore, readJsonIfPresent } from '../../lib/object-store';

/** A chunk's embedding as it is kept: the vector and the model that made it. */
export interface ChunkEmbedding {
  vector: number[];
  model: string;
}

/** What each paid part of a chunk yields: the model's checked answer, and the embedding. */
export interface ChunkParts {
  answer: unknown;
  embedding: ChunkEmbedding;
}
export type ChunkPartName = keyof ChunkParts;

/** One paid part and its cost; `counted` once a failed attempt reported the cost to the workflow (billedUsage). */
interface KeptPart<T> {
  value: T;
  usage: Usage;
  counted: boolean;
}
type KeptParts = { [K in ChunkPartName]?: KeptPart<ChunkParts[K]> };

export type PaidPart<T> = { value: T; usage: Usage };
export type ChunkWork = { [K in ChunkPartName]?: () => Promise<PaidPart<ChunkParts[K]>> };

/**
 * The parts of one chunk already paid for, kept in S3 (documentKeys.chunkPartial) until the chunk's result is
 * written. A chunk makes two paid calls (its summary and its embedding); when one is refused (the tenant's spend
 * cap) or fails, the other's answer is kept, so the attempt that runs after the wait pays only for what is missing.
 * Each paid call's cost reaches the job once: in the failure of the attempt that paid for it (billedUsage) when
 * that attempt failed with one of our errors, else in the chunk's result (uncountedUsage).
 */
export class ChunkPartial {
  private constructor(
    private readonly store: ObjectStore,
    private readonly key: string,
    private readonly parts: KeptParts,
  ) {}

  static async read(store: ObjectStore, key: string): Promise<ChunkPartial> {
    const parts = (await readJsonIfPresent<KeptParts>(store, key)) ?? {};
    return new ChunkPartial(store, key, parts);
  }

  /** A chunk known to have no partial in S3 (a listing just showed none): nothing is read. */
  static none(store: ObjectStore, key: string): ChunkPartial {
    return new ChunkPartial(store, key, {});
  }

  /** Whether a part is paid for already (an earlier attempt kept it). */
  has(name: ChunkPartName): boolean {
    return this.parts[name] !== undefined;
  }

  /**
   * Runs, at once, the parts of `work` not paid for yet. When one fails, the parts that were paid for are kept
   * and the first failure is thrown, carrying their cost in its billedUsage.
   */
  async pay(work: ChunkWork): Promise<void> {
    const names = (Object.keys(work) as ChunkPartName[]).filter((name) => !this.has(name));
    const settled = await Promise.allSettled(names.map((name) => (work[name] as () => Promise<PaidPart<unknown>>)()));
    const failure = settled.find((outcome) => outcome.status === 'rejected');
    if (!failure) {
      settled.forEach((outcome, i) => this.keep(names[i] as ChunkPartName, (outcome as PromiseFulfilledResult<PaidPart<unknown>>).value, false));
      return;
    }
    const error: unknown = failure.reason;
    // Only our typed errors carry billedUsage to the workflow; any other failure leaves the cost to the result.
    const reported = error instanceof SlowlaneError;
    let paid = emptyUsage();
    settled.forEach((outcome, i) => {
      if (outcome.status !== 'fulfilled') return;
      this.keep(names[i] as ChunkPartName, outcome.value, reported);
      paid = addUsage(paid, outcome.value.usage);
    });
    if (paid.calls > 0) await this.store.put(this.key, JSON.stringify(this.parts), { contentType: 'application/json' });
    throw reported && paid.calls > 0 ? withBilledUsage(error, paid) : error;
  }

  value<K extends ChunkPartName>(name: K): ChunkParts[K] {
    const part = this.parts[name];
    if (!part) throw new Error(`the chunk's ${name} was never paid for`);
    return part.value as ChunkParts[K];
  }

  /** The cost of the kept parts no failed attempt has reported yet: what the chunk's result reports. */
  uncountedUsage(): Usage {
    return Object.values(this.parts).reduce((sum, part) => (part.counted ? sum : addUsage(sum, part.usage)), emptyUsage());
  }

  private keep(name: ChunkPartName, part: PaidPart<unknown>, counted: boolean): void {
    (this.parts as Record<ChunkPartName, KeptPart<unknown>>)[name] = { ...part, counted };
  }
}

/** The same typed error (same class, so the same failure type and retry rule) with `usage` added to what it billed. */
export function withBilledUsage(error: SlowlaneError, usage: Usage): SlowlaneError {
  const billed = error.details?.billedUsage as Usage | undefined;
  const ErrorClass = error.constructor as new (message: string, options: ConstructorParameters<typeof SlowlaneError>[1]) => SlowlaneError;
  return new ErrorClass(error.message, {
    details: { ...error.details, billedUsage: billed ? addUsage(billed, usage) : usage },
    cause: error,
    ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
  });
}
