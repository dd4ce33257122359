import { digestContentPrefix } from '../../common/job-types/tickets-digest/object-prefix';

/** Bumped when batching or the line format changes, so a retried job never mixes old and new batches. */
export const TICKET_BATCHING_VERSION = 'lines-1';

/** Where a digest's intermediate objects live: batches by the input's content, model answers by the job. */
export const digestObjectKeys = {
  batchesOf: (tenantId: string, sha256: string): string => `${digestContentPrefix(tenantId, sha256)}.${TICKET_BATCHING_VERSION}`,
  facts: (batches: string): string => `${batches}/facts.json`,
  batch: (batches: string, index: number): string => `${batches}/batch-${String(index).padStart(4, '0')}.txt`,
  /** The job id has colons; a job's answers sit under its id made path-safe. */
  summary: (batchKey: string, jobId: string): string => `${batchKey}.${encodeURIComponent(jobId)}.summary.json`,
  digest: (factsKey: string, jobId: string): string => `${factsKey}.${encodeURIComponent(jobId)}.digest.json`,
};
