import { open, readFile } from 'node:fs/promises';
import { imageSize } from '../../common/image-header';
import type { JobTypeDefinition } from '../../common/job-types/job-type';
import { parseJsonLines } from '../../common/job-types/json-lines';
import type { UploadContentType } from '../../common/upload-content-type';
import { NotAudioError, probeAudioDuration } from '../../lib/audio/probe-audio';
import { countPdfPages } from '../../lib/pdf-page-count';
import { ApiError, apiErrors } from '../api-error';
import type { ReceivedUpload } from '../multipart-upload';
import { type LimitSettings, limitValue, maxBytesOf } from './input-limits';

/**
 * Holds an upload to what its job type accepts (the definition's file kinds), before any job starts, the same way
 * for every type: the kind of file, its bytes, an image's sides, its pages, and for a JSONL kind every line against
 * its schema, so a file the type cannot take is a 4xx saying which limit instead of a job that fails minutes later.
 */
export async function checkFileInput(definition: JobTypeDefinition, upload: ReceivedUpload, settings: LimitSettings): Promise<void> {
  if (definition.input.kind !== 'file') return;
  const kind = definition.input.accepts.find((accepted) => accepted.contentType === upload.contentType);
  if (!kind) {
    const accepted = definition.input.accepts.map((accepted) => (accepted.jsonLines ? 'JSONL text' : accepted.contentType)).join(' or ');
    throw new ApiError(415, 'unsupported_media_type', `a ${definition.name} job takes ${accepted}, judged by the file's bytes`);
  }
  const maxBytes = maxBytesOf(kind, settings);
  if (upload.sizeBytes > maxBytes) throw apiErrors.payloadTooLarge(maxBytes);
  if (kind.maxSidePx !== undefined) await checkImageSize(upload.path, kind.maxSidePx);
  if (kind.maxPages !== undefined) await checkPages(upload, limitValue(kind.maxPages, settings));
  if (kind.maxDurationSeconds !== undefined) await checkDuration(upload, limitValue(kind.maxDurationSeconds, settings));
  if (!kind.jsonLines) return;
  const checked = parseJsonLines(await readFile(upload.path, 'utf8'), kind.jsonLines);
  if (checked.ok) return;
  if (checked.kind === 'too_many') {
    throw new ApiError(413, 'payload_too_large', `the file has more than ${checked.limit} lines; split it`, { limitLines: checked.limit });
  }
  throw apiErrors.invalidRequest(checked.message, { field: 'file', line: checked.line });
}

/** Enough for a JPEG's frame header behind a camera's EXIF block; an image whose size is not in it is judged by the worker. */
const IMAGE_HEADER_BYTES = 256 * 1024;

async function checkImageSize(path: string, maxSidePx: number): Promise<void> {
  const file = await open(path, 'r');
  let head: Buffer;
  try {
    const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(IMAGE_HEADER_BYTES), position: 0 });
    head = buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
  const size = imageSize(head);
  if (size && Math.max(size.width, size.height) > maxSidePx) {
    throw new ApiError(413, 'payload_too_large', `the image is ${size.width}x${size.height} px; the model reads at most ${maxSidePx}x${maxSidePx} px; scale it down`, {
      limitPixels: maxSidePx,
    });
  }
}

/** A recording's length by ffprobe; bytes that only looked like audio are a 415, as any other unknown content. */
async function checkDuration(upload: ReceivedUpload, limitSeconds: number): Promise<void> {
  let durationSeconds: number;
  try {
    durationSeconds = await probeAudioDuration(upload.path);
  } catch (error) {
    if (error instanceof NotAudioError) throw apiErrors.unsupportedMediaType();
    throw error;
  }
  if (durationSeconds > limitSeconds) throw apiErrors.tooLong(durationSeconds, limitSeconds);
}

const FORM_FEED = 0x0c;

/**
 * A PDF's pages from its page tree, a text's from its form feeds (as the workers split it), an image is one. A PDF
 * pdf.js cannot open passes here and fails in the worker with the reader's reason.
 */
async function checkPages(upload: ReceivedUpload, limitPages: number): Promise<void> {
  const pages = await countPages(upload.contentType, await readFile(upload.path));
  if (pages !== undefined && pages > limitPages) throw apiErrors.tooManyPages(pages, limitPages);
}

async function countPages(contentType: UploadContentType, bytes: Buffer): Promise<number | undefined> {
  if (contentType === 'application/pdf') return countPdfPages(new Uint8Array(bytes));
  if (contentType !== 'text/plain') return 1;
  let pages = 1;
  for (const byte of bytes) if (byte === FORM_FEED) pages++;
  return pages;
}
