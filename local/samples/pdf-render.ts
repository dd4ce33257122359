import PDFDocument from 'pdfkit';
import type { Block, PdfSample } from './sample-document';

/**
 * Fixed metadata: pdfkit stamps the current time into CreationDate and derives the file /ID from it,
 * and Slowlane keys idempotency on the content hash, so the same sample must be the same bytes.
 */
const FIXED_DATE = new Date('2024-01-01T00:00:00.000Z');
const LEFT = 56;
const RIGHT = 539;
const VALUE_COLUMN = 220;
const LINE_GAP = 15;

function drawBlock(doc: PDFKit.PDFDocument, block: Block, top: number): number {
  switch (block.kind) {
    case 'heading':
      doc.font('Helvetica-Bold').fontSize(18).text(block.text, LEFT, top, { lineBreak: false });
      return top + 28;
    case 'lines':
      doc.font('Helvetica').fontSize(9);
      block.lines.forEach((line, index) => doc.text(line, LEFT, top + index * 12, { lineBreak: false }));
      return top + block.lines.length * 12 + 6;
    case 'fields':
      doc.font('Helvetica').fontSize(10);
      block.rows.forEach(([label, value], index) => {
        doc.text(label, LEFT, top + index * LINE_GAP, { lineBreak: false });
        doc.text(value, VALUE_COLUMN, top + index * LINE_GAP, { lineBreak: false });
      });
      return top + block.rows.length * LINE_GAP + 6;
    case 'table':
      return drawTable(doc, block.columns, block.rows, top);
    case 'paragraph': {
      doc
        .font('Helvetica')
        .fontSize(10)
        .text(block.text, LEFT, top, { width: RIGHT - LEFT });
      return doc.y + 8;
    }
    case 'gap':
      return top + 12;
  }
}

function drawTable(doc: PDFKit.PDFDocument, columns: string[], rows: string[][], top: number): number {
  const numericColumns = columns.length - 1;
  const numericWidth = 80;
  const rightEdges = columns.map((_, index) => RIGHT - (numericColumns - index) * numericWidth);
  const drawRow = (cells: string[], y: number): void => {
    cells.forEach((cell, index) => {
      if (index === 0) {
        doc.text(cell, LEFT, y, { lineBreak: false });
        return;
      }
      const right = rightEdges[index] ?? RIGHT;
      doc.text(cell, right - numericWidth + 10, y, { width: numericWidth - 10, align: 'right', lineBreak: false });
    });
  };
  doc.font('Helvetica-Bold').fontSize(10);
  drawRow(columns, top);
  doc.font('Helvetica');
  rows.forEach((row, index) => drawRow(row, top + (index + 1) * LINE_GAP));
  return top + (rows.length + 1) * LINE_GAP + 10;
}

/** Renders a sample to PDF bytes, the same bytes on every run. */
export function renderPdf(sample: PdfSample): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: LEFT,
    compress: false, // plain streams: the bytes then do not depend on the machine's zlib build
    info: { Title: sample.title, Author: 'Slowlane demo samples', CreationDate: FIXED_DATE, ModDate: FIXED_DATE },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  let top = LEFT;
  for (const block of sample.blocks) top = drawBlock(doc, block, top);
  doc.end();
  return finished;
}
