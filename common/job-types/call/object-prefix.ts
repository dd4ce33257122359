/** Per job: a call's chunks, transcripts and summary belong to the job that asked for them, and go with it on erasure. */
export const callObjectPrefix = (tenantId: string, jobId: string): string => `calls/${tenantId}/${encodeURIComponent(jobId)}`;
