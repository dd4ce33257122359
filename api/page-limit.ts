import { readFile } from 'node:fs/promises';
import type { JobTypeDefinition } from '../common/job-types/job-type';
import { countPdfPages } from '../lib/pdf-page-count';
import { apiErrors } from './api-error';
import type { ReceivedUpload } from './multipart-upload';

const FORM_FEED = 0x0c;

/**
 * Refuses with 413 `too_many_pages` an upload with more pages than `limitPages` when its type limits pages
 * (FileKind.pageLimited): a PDF's count comes from its page tree, a text's from its form feeds (as the worker
 * splits it). A PDF pdf.js cannot open passes here and fails in the worker with the reader's reason.
 */
export async function refuseTooManyPages(jobType: JobTypeDefinition, upload: ReceivedUpload, limitPages: number): Promise<void> {
  if (jobType.input.kind !== 'file') return;
  const kind = jobType.input.accepts.find((accepted) => accepted.contentType === upload.contentType);
  if (!kind?.pageLimited) return;
  const bytes = await readFile(upload.path);
  const pages = upload.contentType === 'application/pdf' ? await countPdfPages(new Uint8Array(bytes)) : countTextPages(bytes);
  if (pages !== undefined && pages > limitPages) throw apiErrors.tooManyPages(pages, limitPages);
}

function countTextPages(bytes: Buffer): number {
  let pages = 1;
  for (const byte of bytes) if (byte === FORM_FEED) pages++;
  return pages;
}
