/**
 * Splitting a document's pages into chunks of about `targetTokens` tokens, on word boundaries, each knowing the
 * pages it spans. Tokens are estimated as the simulator and the gateway's first estimate count them: a token per
 * four characters, about what English text costs on current models; a chunk may come out a little under the target
 * (it closes before the word that would pass it) and is never over it unless one word alone is.
 */

export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export interface PageChunk {
  index: number;
  /** 1-based, inclusive. */
  firstPage: number;
  lastPage: number;
  tokens: number;
  text: string;
  /** A scanned page, alone in its chunk, with no text (yet): the model transcribes it. */
  scanned?: true;
}

export function chunkPages(pages: readonly string[], targetTokens: number): PageChunk[] {
  if (!Number.isInteger(targetTokens) || targetTokens < 1) throw new RangeError('targetTokens must be a positive integer');
  const maxChars = targetTokens * CHARS_PER_TOKEN;
  const chunks: PageChunk[] = [];
  let text = '';
  let firstPage = 0;
  let lastPage = 0;
  const close = (): void => {
    if (text === '') return;
    chunks.push({ index: chunks.length, firstPage, lastPage, tokens: estimateTokens(text), text });
    text = '';
  };
  pages.forEach((page, pageIndex) => {
    const pageNumber = pageIndex + 1;
    let firstWordOfPage = true;
    for (const word of page.split(/\s+/)) {
      if (word === '') continue;
      // Pages are joined by a line break, words within a page by a space.
      const separator = text === '' ? '' : firstWordOfPage ? '\n' : ' ';
      if (text !== '' && text.length + separator.length + word.length > maxChars) close();
      if (text === '') {
        text = word;
        firstPage = pageNumber;
      } else {
        text += separator + word;
      }
      lastPage = pageNumber;
      firstWordOfPage = false;
    }
  });
  close();
  return chunks;
}

/**
 * Chunks a document some of whose pages are scans (1-based page numbers in `scannedPages`): the text between scans
 * is chunked as chunkPages does, and each scanned page is a chunk of its own, in page order, for the model to read.
 */
export function chunkDocumentPages(pages: readonly string[], scannedPages: ReadonlySet<number>, targetTokens: number): PageChunk[] {
  const chunks: PageChunk[] = [];
  let segmentStart = 0;
  const closeSegment = (end: number): void => {
    for (const chunk of chunkPages(pages.slice(segmentStart, end), targetTokens)) {
      chunks.push({ ...chunk, index: chunks.length, firstPage: chunk.firstPage + segmentStart, lastPage: chunk.lastPage + segmentStart });
    }
  };
  pages.forEach((_, pageIndex) => {
    const pageNumber = pageIndex + 1;
    if (!scannedPages.has(pageNumber)) return;
    closeSegment(pageIndex);
    chunks.push({ index: chunks.length, firstPage: pageNumber, lastPage: pageNumber, tokens: 0, text: '', scanned: true });
    segmentStart = pageIndex + 1;
  });
  closeSegment(pages.length);
  return chunks;
}
