import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import PDFDocument from 'pdfkit';

/** The demo's long PDF for the `document` type; generated on demand, never committed (it is ~1.5 MB). */
export const LONG_DOCUMENT_FILE = 'northwind-annual-report-300-pages.pdf';
export const LONG_DOCUMENT_PAGES = 300;

/** Fixed, so the same pages are the same bytes (idempotency and S3 keys follow the content hash). */
const FIXED_DATE = new Date('2024-01-01T00:00:00.000Z');
const TOPICS = [
  ['turbine', 'maintenance', 'blades', 'inspection', 'downtime'],
  ['revenue', 'quarter', 'margin', 'pricing', 'contracts'],
  ['safety', 'incidents', 'training', 'audits', 'procedures'],
  ['suppliers', 'logistics', 'inventory', 'shipping', 'lead times'],
  ['research', 'prototypes', 'efficiency', 'materials', 'testing'],
  ['customers', 'service', 'warranty', 'feedback', 'renewals'],
];
const VERBS = ['improved', 'declined', 'held steady', 'was reviewed', 'was extended', 'doubled', 'needs attention'];
const PLACES = ['the North Sea site', 'the Lyon plant', 'the Gdansk yard', 'the Porto office', 'the Aarhus depot'];

/** A deterministic sentence for page `page`, sentence `index`: varied enough that chunks differ, no randomness. */
function sentence(page: number, index: number): string {
  const topic = TOPICS[Math.floor(page / 10) % TOPICS.length] ?? TOPICS[0]!;
  const subject = topic[(page + index) % topic.length];
  const other = topic[(page * 3 + index + 2) % topic.length];
  const verb = VERBS[(page * 7 + index) % VERBS.length];
  const place = PLACES[(page + index * 5) % PLACES.length];
  return `In ${place}, ${subject} ${verb} during period ${(page % 12) + 1}, and the team tied it to ${other} (item ${page}.${index}).`;
}

/** The text of one page: a heading, then a few paragraphs of about 2,400 characters in all (~600 tokens). */
export function longDocumentPage(page: number): { heading: string; paragraphs: string[] } {
  const chapter = Math.floor((page - 1) / 10) + 1;
  const paragraphs = Array.from({ length: 4 }, (_, paragraph) =>
    Array.from({ length: 5 }, (_, index) => sentence(page, paragraph * 5 + index)).join(' '),
  );
  return { heading: `Chapter ${chapter} · page ${page}`, paragraphs };
}

/** Renders the long document: `pages` A4 pages of text with a heading each. */
export function renderLongDocument(pages = LONG_DOCUMENT_PAGES): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    compress: false,
    autoFirstPage: false,
    info: { Title: 'Northwind annual report', Author: 'Slowlane demo samples', CreationDate: FIXED_DATE, ModDate: FIXED_DATE },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (let page = 1; page <= pages; page++) {
    doc.addPage();
    const { heading, paragraphs } = longDocumentPage(page);
    doc.font('Helvetica-Bold').fontSize(14).text(heading, { width: 483 });
    doc.moveDown(0.5);
    doc.font('Helvetica').fontSize(9);
    for (const paragraph of paragraphs) doc.text(paragraph, { width: 483 }).moveDown(0.5);
  }
  doc.end();
  return finished;
}

/** Writes the long document into `outDir` (created if missing) and returns its path. */
export async function writeLongDocument(outDir: string, pages = LONG_DOCUMENT_PAGES): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const path = join(outDir, LONG_DOCUMENT_FILE);
  await writeFile(path, await renderLongDocument(pages));
  return path;
}
