import { ProviderFileMissingError } from '../common/errors';
import type { ModelMediaType, ProviderFileMedia } from '../common/model-media';
import type { ProviderFiles } from '../gateway/files/provider-files';
import type { ObjectStore } from '../lib/object-store';
import {
  providerFileKeys,
  providerFilename,
  readProviderFileRecord,
  writeProviderFileRecord,
} from '../lib/provider-files/job-provider-files';

/** What a step needs to send scans by Files API id (MODEL_FILES_API); absent, scans go inline as base64. */
export interface ProviderFileDeps {
  store: ObjectStore;
  files: ProviderFiles;
}

export interface StoredScan {
  /** The scan's S3 key: one upload per job and key. */
  key: string;
  mediaType: ModelMediaType;
  pages: number;
  /** Read only when the scan must be uploaded. */
  read: () => Promise<Buffer>;
}

/**
 * The scan as a Files API reference, uploaded at most once per job: every later call, retry or repair names the
 * same id. The record is written before the upload and completed after it; an attempt that finds a record without
 * an id (its worker was killed mid-upload) looks the file up by its deterministic name before uploading again.
 */
export async function scanAsProviderFile(
  deps: ProviderFileDeps,
  job: { tenantId: string; jobId: string },
  scan: StoredScan,
  signal?: AbortSignal,
): Promise<ProviderFileMedia> {
  const recordKey = providerFileKeys.record(job.tenantId, job.jobId, scan.key);
  const media = (fileId: string, sizeBytes: number): ProviderFileMedia => ({ mediaType: scan.mediaType, fileId, sizeBytes, pages: scan.pages });
  const recorded = await readProviderFileRecord(deps.store, recordKey);
  if (recorded?.fileId) return media(recorded.fileId, recorded.sizeBytes);
  if (recorded) {
    const landed = await findByName(deps.files, recorded.filename);
    if (landed) {
      await writeProviderFileRecord(deps.store, recordKey, { ...recorded, fileId: landed });
      return media(landed, recorded.sizeBytes);
    }
  }
  const bytes = await scan.read();
  const record = {
    objectKey: scan.key,
    filename: providerFilename(job.tenantId, job.jobId, scan.key, scan.mediaType),
    sizeBytes: bytes.length,
    uploadStartedAt: recorded?.uploadStartedAt ?? new Date().toISOString(),
  };
  if (!recorded) await writeProviderFileRecord(deps.store, recordKey, record);
  const uploaded = await deps.files.upload({ bytes, filename: record.filename, mediaType: scan.mediaType, ...(signal ? { signal } : {}) });
  await writeProviderFileRecord(deps.store, recordKey, { ...record, fileId: uploaded.id });
  return media(uploaded.id, bytes.length);
}

/**
 * Runs a call on the uploaded scan; when the provider no longer holds the file (ProviderFileMissingError) the record
 * goes, so the step's retry uploads the scan again instead of naming the lost id forever.
 */
export async function forgettingMissingFile<T>(
  store: ObjectStore,
  job: { tenantId: string; jobId: string },
  scanKey: string,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ProviderFileMissingError) await store.deleteMany([providerFileKeys.record(job.tenantId, job.jobId, scanKey)]);
    throw error;
  }
}

async function findByName(files: ProviderFiles, filename: string): Promise<string | undefined> {
  for await (const file of files.list()) if (file.filename === filename) return file.id;
  return undefined;
}
