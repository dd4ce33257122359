import { documentObjectPrefix } from '../../common/job-types/document/object-prefix';

/** Where a document job's intermediate and final objects live in S3; one place, so every step agrees. */
const chunksDir = (prefix: string): string => `${prefix}/chunks/`;

export const documentKeys = {
  prefix: documentObjectPrefix,
  /** Where every per-chunk object below is: one listing shows a group step which records exist. */
  chunksDir,
  /** One chunk's text, as runs stored them before chunkTexts (a result without chunkTextsKey). */
  chunkText: (prefix: string, index: number): string => `${chunksDir(prefix)}${index}.txt`,
  /** Every chunk's text in one JSON array by index ('' for a scanned page): one put, one read per worker. */
  chunkTexts: (prefix: string): string => `${prefix}/chunk-texts.json`,
  chunkResult: (prefix: string, index: number): string => `${chunksDir(prefix)}${index}.json`,
  /** The parts of a chunk already paid for while its result is not written yet (chunk-partial.ts). */
  chunkPartial: (prefix: string, index: number): string => `${chunksDir(prefix)}${index}.partial.json`,
  /** A scanned page's chunk: the page cut out as a one-page PDF, what the model reads instead of text. */
  chunkScan: (prefix: string, index: number): string => `${chunksDir(prefix)}${index}.pdf`,
  chunksJsonl: (prefix: string): string => `${prefix}/chunks.jsonl`,
  summary: (prefix: string): string => `${prefix}/summary.json`,
};

/** Runs `work` over `items` with at most `limit` at a time, results in input order. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}
