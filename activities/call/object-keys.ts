import { callObjectPrefix } from '../../common/job-types/call/object-prefix';

const numbered = (index: number): string => String(index).padStart(4, '0');

/** Where a call job's objects live: all under the job's own prefix (the definition's `objects.ownPrefix`). */
export const callObjectKeys = {
  chunk: (tenantId: string, jobId: string, index: number): string => `${callObjectPrefix(tenantId, jobId)}/chunks/${numbered(index)}.flac`,
  chunkTranscript: (chunkKey: string): string => `${chunkKey.replace(/\.[a-z0-9]+$/, '')}.transcript.json`,
  transcript: (tenantId: string, jobId: string): string => `${callObjectPrefix(tenantId, jobId)}/transcript.json`,
  vtt: (tenantId: string, jobId: string): string => `${callObjectPrefix(tenantId, jobId)}/transcript.vtt`,
  text: (tenantId: string, jobId: string): string => `${callObjectPrefix(tenantId, jobId)}/transcript.txt`,
  summary: (tenantId: string, jobId: string): string => `${callObjectPrefix(tenantId, jobId)}/summary.json`,
};
