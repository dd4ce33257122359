/**
 * The number of pages a PDF says it has, read from its page tree without reading any page (pdf.js parses only the
 * cross-reference table and the catalog), so the API can refuse a document past its page limit at submission.
 * Undefined when pdf.js cannot open the file: the worker then fails the job with the reader's own reason.
 */
export async function countPdfPages(bytes: Uint8Array): Promise<number | undefined> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // verbosity 0: pdf.js otherwise prints font warnings for many real-world PDFs.
    pdf = await getDocumentProxy(bytes, { verbosity: 0 });
  } catch {
    return undefined;
  }
  try {
    return pdf.numPages;
  } finally {
    await pdf.loadingTask.destroy();
  }
}
