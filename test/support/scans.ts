import PDFDocument from 'pdfkit';
import { pngOf } from '../../local/samples/png-render';

/** Scanned documents made in the test: real PNGs, a JPEG header, PDFs of drawn pages with no text layer. */
export { pngOf };

/** The head of a baseline JPEG: SOI, an APP0 block, then the frame header naming its size (enough for header checks). */
export function jpegHeadOf(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x01, 0x01, 0x11, 0x00]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** A PDF of `pages` pages with drawn shapes and no text layer: what a scanner without OCR produces. */
export function scannedPdfOf(pages: number): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (part: Buffer) => chunks.push(part));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (let page = 0; page < pages; page++) {
    doc.addPage();
    doc.rect(50, 50, 200, 100).fill('#333333');
  }
  doc.end();
  return done;
}

/**
 * A PDF whose pages are as `kinds` says: a page of text, a scanned page (a PNG painted, no text layer) or a blank
 * page. Real scanners paint each page as an image; a blank page paints nothing.
 */
export function mixedPdfOf(kinds: ReadonlyArray<'text' | 'scan' | 'blank'>): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (part: Buffer) => chunks.push(part));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  kinds.forEach((kind, index) => {
    doc.addPage();
    if (kind === 'text') doc.fontSize(12).text(`Page ${index + 1} holds the harbour dredging report for the quarter, with its costs and its dates.`);
    if (kind === 'scan') doc.image(pngOf(400, 300), 50, 50, { width: 400 });
  });
  doc.end();
  return done;
}
