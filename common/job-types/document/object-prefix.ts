/** Per job, not per content: chunking settings and results belong to the job that asked for them. */
export const documentObjectPrefix = (tenantId: string, jobId: string): string => `documents/${tenantId}/${encodeURIComponent(jobId)}`;
