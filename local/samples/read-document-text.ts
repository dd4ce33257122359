import { readFile } from 'node:fs/promises';

/**
 * A document's text the way Slowlane's extractText step reads it: unpdf (pdf.js) with pages merged
 * for PDFs, the file as UTF-8 for text. Used to check samples and real invoices against the reader.
 */
export async function readDocumentText(path: string): Promise<string> {
  const bytes = await readFile(path);
  if (!path.toLowerCase().endsWith('.pdf')) return bytes.toString('utf8');
  // unpdf is ESM-only; a dynamic import is how this CommonJS package loads it.
  const { extractText, getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}
