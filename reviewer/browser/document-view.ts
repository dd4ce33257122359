import type * as PdfJs from 'pdfjs-dist';
import type { Job, ReviewerApi } from './api';
import { h, mount } from './dom';

const VENDOR = '/review/vendor';
/** Invoices are a page or two; a 300-page upload should not freeze the reviewer's tab. */
const MAX_PAGES = 30;

let pdfjs: Promise<typeof PdfJs> | undefined;

/** pdf.js (pdfjs-dist 5, served from node_modules) is loaded the first time a PDF is shown. */
function loadPdfJs(): Promise<typeof PdfJs> {
  pdfjs ??= (import(new URL(`${VENDOR}/pdf.mjs`, location.href).href) as Promise<typeof PdfJs>).then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = `${VENDOR}/pdf.worker.mjs`;
    return lib;
  });
  return pdfjs;
}

/**
 * Shows the uploaded document: PDF pages drawn on canvases (a scanned PDF too), a PNG/JPEG scan as an image, the
 * text of a .txt job, or a player for a call's recording.
 */
export async function showDocument(container: HTMLElement, api: ReviewerApi, job: Job, isCurrent: () => boolean): Promise<void> {
  mount(container, h('p', { class: 'muted' }, 'Loading the document…'));
  try {
    const response = await api.document(job.jobId);
    if (!isCurrent()) return;
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType.startsWith('image/')) {
      // A scan: shown as the model saw it. A blob URL, because the page's CSP allows img-src blob: and nothing remote.
      const url = URL.createObjectURL(await response.blob());
      if (!isCurrent()) return URL.revokeObjectURL(url);
      const image = h('img', { class: 'document-image', 'data-testid': 'document-image', src: url, alt: `The uploaded scan, ${job.fileName ?? 'document'}` });
      image.addEventListener('load', () => URL.revokeObjectURL(url), { once: true });
      mount(container, image);
      return;
    }
    if (contentType.startsWith('audio/')) {
      // A call: the reviewer listens while editing the summary. The URL lives as long as the player is shown.
      const url = URL.createObjectURL(await response.blob());
      if (!isCurrent()) return URL.revokeObjectURL(url);
      mount(container, h('audio', { class: 'document-audio', 'data-testid': 'document-audio', controls: true, preload: 'metadata', src: url, 'aria-label': `The recording, ${job.fileName ?? 'call'}` }));
      return;
    }
    if (contentType.startsWith('text/plain')) {
      const text = await response.text();
      if (isCurrent()) mount(container, h('pre', { class: 'document-text', 'data-testid': 'document-text' }, text));
      return;
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const lib = await loadPdfJs();
    const pdf = await lib.getDocument({
      data: bytes,
      isEvalSupported: false,
      standardFontDataUrl: `${VENDOR}/standard_fonts/`,
      cMapUrl: `${VENDOR}/cmaps/`,
      wasmUrl: `${VENDOR}/wasm/`,
    }).promise;
    // Freed however this ends (the reviewer moved on, a page failed to render): pdf.js keeps the document in its worker.
    try {
      if (!isCurrent()) return;
      const pages = h('div', { class: 'document-pages', 'data-testid': 'document-pages', 'data-page-count': pdf.numPages });
      mount(container, pages);
      const shown = Math.min(pdf.numPages, MAX_PAGES);
      for (let number = 1; number <= shown && isCurrent(); number++) {
        pages.append(await renderPage(await pdf.getPage(number), container.clientWidth - 24, number));
      }
      if (pdf.numPages > shown) pages.append(h('p', { class: 'muted' }, `Showing ${shown} of ${pdf.numPages} pages.`));
    } finally {
      await pdf.destroy();
    }
  } catch (error) {
    if (isCurrent()) {
      mount(container, h('p', { class: 'error', role: 'alert' }, `Could not show the document: ${error instanceof Error ? error.message : String(error)}`));
    }
  }
}

async function renderPage(page: PdfJs.PDFPageProxy, width: number, number: number): Promise<HTMLCanvasElement> {
  const natural = page.getViewport({ scale: 1 });
  const scale = Math.max(width, 320) / natural.width;
  // Drawn at the screen's pixel density so text stays sharp on laptop displays.
  const density = window.devicePixelRatio || 1;
  const viewport = page.getViewport({ scale: scale * density });
  const canvas = h('canvas', { class: 'document-page', 'aria-label': `Page ${number}` });
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  canvas.style.width = `${Math.floor(viewport.width / density)}px`;
  await page.render({ canvas, viewport }).promise;
  return canvas;
}
