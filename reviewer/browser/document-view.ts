import type * as PdfJs from 'pdfjs-dist';
import type { FieldCitation } from '../../common/job-types/invoice/field-citations';
import type { Job, ReviewerApi } from './api';
import { showCallTranscript } from './call-transcript-view';
import { runsShowing, type TextRun } from './cited-text-match';
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

/** A drawn page: its box on screen and where its text runs are, for highlighting a cited passage. */
interface ShownPage {
  number: number;
  element: HTMLElement;
  runs: TextRun[];
}

/** What showDocument drew, filled in as it draws: what a citation is highlighted on. */
export interface DrawnDocument {
  pages: ShownPage[];
  plainText?: { element: HTMLElement; text: string };
}

/**
 * Marks a cited passage on the drawn document (and scrolls to it), or clears the mark when there is no citation.
 * Says whether the passage was found on the document shown.
 */
export function highlightCitation(container: HTMLElement, drawn: DrawnDocument, citation: FieldCitation | undefined): boolean {
  return drawn.plainText ? markInText(drawn.plainText, citation) : markOnPages(container, drawn.pages, citation);
}

/**
 * Shows the uploaded document: PDF pages drawn on canvases (a scanned PDF too), a PNG/JPEG scan as an image, the
 * text of a .txt job, or a player for a call's recording with its transcript.
 */
export async function showDocument(container: HTMLElement, api: ReviewerApi, job: Job, isCurrent: () => boolean, drawn: DrawnDocument = { pages: [] }): Promise<void> {
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
      // A call: the reviewer listens while editing the summary, its transcript beside the player. The URL lives as
      // long as the player is shown.
      const url = URL.createObjectURL(await response.blob());
      if (!isCurrent()) return URL.revokeObjectURL(url);
      const audio = h('audio', { class: 'document-audio', 'data-testid': 'document-audio', controls: true, preload: 'metadata', src: url, 'aria-label': `The recording, ${job.fileName ?? 'call'}` });
      const transcript = h('section', { class: 'call-transcript-pane', 'aria-label': 'Transcript' });
      mount(container, audio, transcript);
      await showCallTranscript(transcript, api, job, audio, isCurrent);
      return;
    }
    if (contentType.startsWith('text/plain')) {
      const text = await response.text();
      if (!isCurrent()) return;
      drawn.plainText = { element: h('pre', { class: 'document-text', 'data-testid': 'document-text' }, text), text };
      mount(container, drawn.plainText.element);
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
        const page = await renderPage(lib, await pdf.getPage(number), container.clientWidth - 24, number);
        drawn.pages.push(page);
        pages.append(page.element);
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

async function renderPage(
  lib: typeof PdfJs,
  page: PdfJs.PDFPageProxy,
  width: number,
  number: number,
): Promise<ShownPage> {
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
  const runs = await textRunsOf(
    lib,
    page,
    page.getViewport({ scale: Math.floor(viewport.width / density) / natural.width }),
  );
  // The text layer: transparent runs over the drawing, where the PDF puts its text (selectable, and what a highlight is drawn over).
  const layer = h('div', { class: 'text-layer', 'data-testid': 'text-layer' }, ...runs.map(runElement));
  const element = h('div', { class: 'document-page-box', 'data-page': number }, canvas, layer);
  return { number, element, runs };
}

/** The page's text runs with their boxes in CSS pixels: pdf.js's text transform mapped through the page's viewport. */
async function textRunsOf(
  lib: typeof PdfJs,
  page: PdfJs.PDFPageProxy,
  viewport: PdfJs.PageViewport,
): Promise<TextRun[]> {
  const content = await page.getTextContent();
  return content.items.flatMap((item): TextRun[] => {
    if (!('str' in item) || item.str.trim() === '') return [];
    const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = lib.Util.transform(
      viewport.transform,
      item.transform,
    ) as number[];
    const height = Math.hypot(c, d);
    const width = (item.width * Math.hypot(a, b)) / Math.hypot(item.transform[0] ?? 1, item.transform[1] ?? 0);
    return [{ text: item.str, box: { left: x, top: y - height, width, height } }];
  });
}

function runElement(run: TextRun): HTMLElement {
  return placed(h('span', {}, run.text), run.box, 0);
}

/** Positions an element over a box; through the CSSOM, which the page's CSP allows where a style attribute is not. */
function placed<T extends HTMLElement>(element: T, box: TextRun['box'], margin: number): T {
  element.style.left = `${box.left - margin}px`;
  element.style.top = `${box.top - margin}px`;
  element.style.width = `${box.width + 2 * margin}px`;
  element.style.height = `${box.height + 2 * margin}px`;
  element.style.fontSize = `${box.height}px`;
  return element;
}

/** Marks the runs that show the passage, on the cited page first when the citation names one, and scrolls to them. */
function markOnPages(
  container: HTMLElement,
  pages: readonly ShownPage[],
  citation: FieldCitation | undefined,
): boolean {
  container.querySelectorAll('.citation-highlight').forEach((mark) => mark.remove());
  if (!citation) return false;
  const ordered =
    citation.startPage === undefined
      ? pages
      : [...pages].sort((p, q) => Number(q.number === citation.startPage) - Number(p.number === citation.startPage));
  for (const page of ordered) {
    const found = runsShowing(page.runs, citation.citedText);
    if (found.length === 0) continue;
    const marks = found.map((index) =>
      placed(
        h('div', { class: 'citation-highlight', 'data-testid': 'citation-highlight', 'data-page': page.number }),
        (page.runs[index] as TextRun).box,
        2,
      ),
    );
    page.element.append(...marks);
    marks[0]?.scrollIntoView({ block: 'center', behavior: 'instant' });
    return true;
  }
  return false;
}

/** A .txt job: the cited characters marked in the text (the extracted text of a text upload is the upload itself). */
function markInText(shown: { element: HTMLElement; text: string }, citation: FieldCitation | undefined): boolean {
  const { text, element } = shown;
  const byRange =
    citation?.startChar !== undefined &&
    citation.endChar !== undefined &&
    text.slice(citation.startChar, citation.endChar) === citation.citedText;
  const start = !citation ? -1 : byRange ? (citation.startChar as number) : text.indexOf(citation.citedText);
  if (!citation || start === -1) {
    mount(element, text);
    return false;
  }
  const end = start + citation.citedText.length;
  const mark = h('mark', { class: 'citation-highlight', 'data-testid': 'citation-highlight' }, text.slice(start, end));
  mount(element, text.slice(0, start), mark, text.slice(end));
  mark.scrollIntoView({ block: 'center', behavior: 'instant' });
  return true;
}
