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

/** The uploaded files, in upload order (the Files API lists newest first), and what was ever uploaded. */
export class FileStore {
  private readonly files = new Map<string, { metadata: StoredFile; bytes: Buffer }>();
  /** Every upload since the last reset, deleted ones included: a test counts uploads with it. */
  uploads = 0;

  add(metadata: StoredFile, bytes: Buffer): void {
    this.files.set(metadata.id, { metadata, bytes });
    this.uploads += 1;
  }

  get(id: string): { metadata: StoredFile; bytes: Buffer } | undefined {
    return this.files.get(id);
  }

  delete(id: string): boolean {
    return this.files.delete(id);
  }

  /** Newest first, as the API lists them. */
  list(): StoredFile[] {
    return [...this.files.values()].map((file) => file.metadata).reverse();
  }

  clear(): void {
    this.files.clear();
    this.uploads = 0;
  }
}
