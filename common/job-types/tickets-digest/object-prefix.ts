/** A digest's batches are named by the upload's content (every batching version under it); its answers add the job id. */
export const digestContentPrefix = (tenantId: string, sha256: string): string => `digests/${tenantId}/${sha256}`;
