import { createHash } from 'node:crypto';
import { type ObjectStore, readJsonIfPresent } from '../object-store';

/** What the bookkeeping needs of the provider's Files API (gateway/files/provider-files.ts gives it). */
export interface ProviderFileRemover {
  /** Succeeds for a file already gone. */
  delete(fileId: string): Promise<void>;
  list(): AsyncIterable<{ id: string; filename: string; createdAt: string }>;
}

/**
 * A job's upload of one scan, kept under the job's own prefix: written before the upload (no `fileId`) and again
 * after it. A record without an id is an upload a killed worker may have finished; its deterministic filename
 * finds that file in the provider's list, so the scan is neither uploaded twice nor left behind.
 */
export interface ProviderFileRecord {
  objectKey: string;
  filename: string;
  sizeBytes: number;
  fileId?: string;
  uploadStartedAt: string;
}

/** Every name the Files API gets from us starts with this: the sweep deletes nothing else in the account. */
export const PROVIDER_FILENAME_PREFIX = 'slowlane-';

const ROOT = 'provider-files/';

export const providerFileKeys = {
  root: ROOT,
  /** One folder per job: the cleanup, the erasure and the sweep find its uploads here. */
  jobPrefix: (tenantId: string, jobId: string): string => `${ROOT}${tenantId}/${encodeURIComponent(jobId)}/`,
  record: (tenantId: string, jobId: string, objectKey: string): string =>
    `${providerFileKeys.jobPrefix(tenantId, jobId)}${sha256(objectKey).slice(0, 32)}.json`,
  /** The job a record key belongs to, or undefined for a key of another shape. */
  jobOf(recordKey: string): { tenantId: string; jobId: string } | undefined {
    const [tenantId, jobId, file] = recordKey.slice(ROOT.length).split('/');
    return tenantId && jobId && file ? { tenantId, jobId: decodeURIComponent(jobId) } : undefined;
  },
};

/** The name the scan is uploaded under: the same on every attempt, and nobody else's. */
export function providerFilename(tenantId: string, jobId: string, objectKey: string, mediaType: string): string {
  const extension = mediaType === 'application/pdf' ? '.pdf' : mediaType === 'image/png' ? '.png' : '.jpg';
  return `${PROVIDER_FILENAME_PREFIX}${sha256(`${tenantId}\n${jobId}\n${objectKey}`).slice(0, 40)}${extension}`;
}

export function readProviderFileRecord(store: ObjectStore, key: string): Promise<ProviderFileRecord | undefined> {
  return readJsonIfPresent<ProviderFileRecord>(store, key);
}

export async function writeProviderFileRecord(store: ObjectStore, key: string, record: ProviderFileRecord): Promise<void> {
  await store.put(key, JSON.stringify(record), { contentType: 'application/json' });
}

/**
 * Deletes every file the job uploaded, then its records: the end of the job, its erasure and the sweep all come
 * here. Safe to run again: a deleted file deletes again without error, and a record goes only after its file.
 */
export async function deleteJobProviderFiles(
  deps: { store: ObjectStore; files: ProviderFileRemover },
  job: { tenantId: string; jobId: string },
): Promise<{ deleted: number }> {
  const keys: string[] = [];
  for await (const key of deps.store.list(providerFileKeys.jobPrefix(job.tenantId, job.jobId))) keys.push(key);
  if (keys.length === 0) return { deleted: 0 };
  const records = await Promise.all(keys.map(async (key) => ({ key, record: await readProviderFileRecord(deps.store, key) })));
  const ids = new Set(records.flatMap(({ record }) => (record?.fileId ? [record.fileId] : [])));
  const unfinished = new Set(records.flatMap(({ record }) => (record && !record.fileId ? [record.filename] : [])));
  // An upload cut short by a killed worker may still have landed: find it by its name (one listing for them all).
  if (unfinished.size > 0) {
    for await (const file of deps.files.list()) if (unfinished.has(file.filename)) ids.add(file.id);
  }
  for (const id of ids) await deps.files.delete(id);
  await deps.store.deleteMany(keys);
  return { deleted: ids.size };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
