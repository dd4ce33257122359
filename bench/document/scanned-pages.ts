import PDFDocument from 'pdfkit';
import { greyscalePng } from '../../local/samples/png-render';

/**
 * A scanner's page, as far as its size goes: greyscale at about 100 dpi with sensor noise in the low bits, so
 * it compresses as real scans do (a few hundred KB a page) rather than to the few KB of a flat drawing.
 */
export function noisyScanPng(seed: number, width = 850, height = 1100): Buffer {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(width);
    const ink = y % 40 < 8;
    for (let x = 0; x < width; x++) row[x] = (ink ? 0x40 : 0xd0) + (next() & 0x07);
    rows.push(row);
  }
  return greyscalePng(width, rows);
}

/** A PDF of `pages` scanned pages (each an image, no text layer), each page's noise its own. */
export function scannedPdf(pages: number, seed: number): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (part: Buffer) => chunks.push(part));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  for (let page = 0; page < pages; page++) {
    doc.addPage();
    doc.image(noisyScanPng(seed * 1000 + page + 1), 0, 0, { width: 612 });
  }
  doc.end();
  return done;
}
