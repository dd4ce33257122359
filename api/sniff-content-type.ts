import { sniffAudio } from '../common/audio-header';
import { sniffImage } from '../common/image-header';
import type { UploadContentType } from '../common/upload-content-type';

export type SniffedType = UploadContentType;

/** PDF readers accept the header anywhere in the first 1024 bytes, so we do too. */
const PDF_SEARCH_WINDOW = 1024;

/**
 * The document's type judged by its bytes, never its name or declared Content-Type: a renamed .exe stays
 * unsupported, and a PDF named invoice.txt is still read as a PDF.
 */
export function sniffContentType(head: Buffer): SniffedType | undefined {
  if (head.subarray(0, PDF_SEARCH_WINDOW).includes('%PDF-')) return 'application/pdf';
  const image = sniffImage(head);
  if (image) return image;
  const audio = sniffAudio(head);
  if (audio) return audio;
  return looksLikeUtf8Text(head) ? 'text/plain' : undefined;
}

function looksLikeUtf8Text(head: Buffer): boolean {
  if (head.length === 0 || head.includes(0)) return false;
  try {
    // stream: true tolerates a multi-byte character cut at the end of the sample.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return false;
  }
  let control = 0;
  for (const byte of head) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) control++;
  }
  return control / head.length < 0.01;
}
