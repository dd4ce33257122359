import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { UsageError } from './arguments';

/** Scans (PNG, JPEG) too: the invoice type reads them as images. */
const DOCUMENT_EXTENSIONS = new Set(['.pdf', '.txt', '.png', '.jpg', '.jpeg']);

export interface LocalDocument {
  path: string;
  fileName: string;
  bytes: Buffer;
  /** Derived from the content: the same file always names the same job, whatever it is called or where it lies. */
  idempotencyKey: string;
}

export function idempotencyKeyFor(bytes: Uint8Array): string {
  return `sha256-${createHash('sha256').update(bytes).digest('hex').slice(0, 48)}`;
}

async function expand(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new UsageError(`${path}: no such file or folder`);
  if (info.isFile()) return [path];
  if (!info.isDirectory()) return [];
  const entries = await readdir(path, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((entry) => !entry.name.startsWith('.'))
      .map((entry) => {
        const child = join(path, entry.name);
        if (entry.isDirectory()) return expand(child);
        return Promise.resolve(DOCUMENT_EXTENSIONS.has(extname(entry.name).toLowerCase()) ? [child] : []);
      }),
  );
  return nested.flat();
}

/** Files as named, and every .pdf/.txt/.png/.jpg inside the folders named (recursively), each once, in a stable order. */
export async function findDocuments(paths: string[]): Promise<string[]> {
  const found = (await Promise.all(paths.map((path) => expand(resolve(path))))).flat();
  return [...new Set(found)].sort();
}

export async function readDocument(path: string): Promise<LocalDocument> {
  const bytes = await readFile(path);
  return { path, fileName: basename(path), bytes, idempotencyKey: idempotencyKeyFor(bytes) };
}
