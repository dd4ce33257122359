/** A file as the Files API describes it (`GET /v1/files/{id}`), and the bytes the simulator keeps for it. */
export interface StoredFile {
  id: string;
  type: 'file';
  filename: string;
  mime_type: string;
  size_bytes: number;
  created_at: string;
  downloadable: boolean;
}

/** What became of one upload: how many requests named it, and whether it was deleted (`GET /_sim/files`). */
export interface UploadRecord {
  id: string;
  filename: string;
  sizeBytes: number;
  /** Messages, token-counting and batch requests that named the file. */
  reads: number;
  deleted: boolean;
}

/** Bounded, as the call log is: a long benchmark cannot grow the simulator without limit. */
const UPLOAD_LOG_LIMIT = 10_000;

/** The uploaded files, in upload order (the Files API lists newest first), and what was ever uploaded. */
export class FileStore {
  private readonly files = new Map<string, { metadata: StoredFile; bytes: Buffer }>();
  private log: UploadRecord[] = [];
  /** Every upload since the last reset, deleted ones included: a test counts uploads with it. */
  uploads = 0;

  add(metadata: StoredFile, bytes: Buffer): void {
    this.files.set(metadata.id, { metadata, bytes });
    this.uploads += 1;
    this.log.push({ id: metadata.id, filename: metadata.filename, sizeBytes: metadata.size_bytes, reads: 0, deleted: false });
    if (this.log.length > UPLOAD_LOG_LIMIT) this.log.splice(0, this.log.length - UPLOAD_LOG_LIMIT);
  }

  /** A request named the file (files/resolve-file-sources.ts). */
  noteRead(id: string): void {
    const entry = this.log.find((upload) => upload.id === id);
    if (entry) entry.reads += 1;
  }

  uploadLog(): UploadRecord[] {
    return this.log.map((upload) => ({ ...upload }));
  }

  get(id: string): { metadata: StoredFile; bytes: Buffer } | undefined {
    return this.files.get(id);
  }

  delete(id: string): boolean {
    const entry = this.log.find((upload) => upload.id === id);
    if (entry) entry.deleted = true;
    return this.files.delete(id);
  }

  /** Newest first, as the API lists them. */
  list(): StoredFile[] {
    return [...this.files.values()].map((file) => file.metadata).reverse();
  }

  clear(): void {
    this.files.clear();
    this.log = [];
    this.uploads = 0;
  }
}
