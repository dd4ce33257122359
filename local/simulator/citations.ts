import { findAmounts, sameAmount } from './reader/amounts';
import { readCurrency } from './reader/currency';
import { findDates } from './reader/dates';
import { isRecord, type ContentBlock, type CountTokensRequest } from './messages-request';

/**
 * Citations on document blocks as the Messages API documents them (platform.claude.com build-with-claude/citations):
 * `citations: { enabled: true }` on a `document` block makes the answer's text blocks carry `citations`, each with
 * the `cited_text` and where it is: `char_location` (0-based, end exclusive) in a plain-text document,
 * `page_location` (1-based, end exclusive) in a PDF, `content_block_location` (0-based blocks, end exclusive) in a
 * custom-content document, whose blocks are never chunked further. The API chunks plain text into sentences; this
 * simulator cites whole lines, which is what an invoice's text is made of.
 */

export interface CharCitation {
  type: 'char_location';
  cited_text: string;
  document_index: number;
  document_title: string | null;
  start_char_index: number;
  end_char_index: number;
}

export interface PageCitation {
  type: 'page_location';
  cited_text: string;
  document_index: number;
  document_title: string | null;
  start_page_number: number;
  end_page_number: number;
}

export interface BlockCitation {
  type: 'content_block_location';
  cited_text: string;
  document_index: number;
  document_title: string | null;
  start_block_index: number;
  end_block_index: number;
}

export interface CitedBlock {
  type: 'text';
  text: string;
  citations: Array<CharCitation | PageCitation | BlockCitation> | null;
}

interface DocumentAt {
  block: ContentBlock;
  path: string;
}

function documentsOf(request: CountTokensRequest): DocumentAt[] {
  return request.messages.flatMap((message, index) =>
    Array.isArray(message.content)
      ? message.content.flatMap((block, position) => (block.type === 'document' ? [{ block, path: `messages.${index}.content.${position}` }] : []))
      : [],
  );
}

function citationsEnabled(block: ContentBlock): boolean {
  return isRecord(block.citations) && block.citations.enabled === true;
}

/** Whether the request asks for citations: a document with them enabled. */
export function wantsCitations(request: CountTokensRequest): boolean {
  return documentsOf(request).some(({ block }) => citationsEnabled(block));
}

/** Why the API would refuse the request's citations with a 400, in its wording as far as it is known, or null. */
export function citationProblemOf(request: CountTokensRequest): string | null {
  for (const [index, message] of request.messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [position, block] of message.content.entries()) {
      // Claude cites text, not images: an image block has no such field.
      if (block.type === 'image' && block.citations !== undefined) return `messages.${index}.content.${position}.image.citations: Extra inputs are not permitted`;
    }
  }
  const documents = documentsOf(request);
  for (const { block, path } of documents) {
    if (block.citations !== undefined && !isRecord(block.citations)) return `${path}.citations: Input should be a valid dictionary`;
  }
  const enabled = documents.filter(({ block }) => citationsEnabled(block)).length;
  if (enabled === 0) return null;
  if (enabled < documents.length) return 'Citations must be enabled on all documents or on none of them.';
  if (request.output_config?.format) return 'Citations are not supported together with structured outputs (output_config.format); disable one of them.';
  return null;
}

/** A document's text as the API cites it: a plain-text source's data, a custom-content source's blocks, or each page's text of a PDF (read beforehand). */
export type CitableDocument = { kind: 'text'; text: string } | { kind: 'blocks'; blocks: string[] } | { kind: 'pdf'; pages: string[] };

interface Line {
  text: string;
  start: number;
  page?: number;
  block?: number;
}

function linesOf(document: CitableDocument): Line[] {
  const split = (text: string, page?: number): Line[] => {
    let start = 0;
    return text.split('\n').map((line) => {
      const at = { text: line, start, ...(page !== undefined ? { page } : {}) };
      start += line.length + 1;
      return at;
    });
  };
  if (document.kind === 'blocks') return document.blocks.map((text, block) => ({ text, start: 0, block }));
  return document.kind === 'text' ? split(document.text) : document.pages.flatMap((page, index) => split(page, index + 1));
}

/** `- name: value` lines of the question: the values the model is asked to point at. */
function askedValues(question: string): Array<[string, string]> {
  return [...question.matchAll(/^\s*-\s*([A-Za-z][A-Za-z0-9]*)\s*:\s*(.+?)\s*$/gm)].map((match) => [match[1] ?? '', match[2] ?? '']);
}

/** Whether the line shows the value as an invoice prints it: a date or an amount in any written form, a currency by code or sign, text as is. */
function shows(line: string, value: string): boolean {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return findDates(line).some((date) => date.iso === value);
  if (/^-?\d+(\.\d+)?$/.test(value)) return findAmounts(line).some((amount) => sameAmount(amount.value, Number(value)));
  if (/^[A-Z]{3}$/.test(value) && readCurrency(line).value === value) return true;
  const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  return squeeze(line).includes(squeeze(value));
}

function citationOf(line: Line): CharCitation | PageCitation | BlockCitation {
  const common = { cited_text: line.text, document_index: 0, document_title: null };
  if (line.block !== undefined) return { type: 'content_block_location', ...common, start_block_index: line.block, end_block_index: line.block + 1 };
  return line.page === undefined
    ? { type: 'char_location', ...common, start_char_index: line.start, end_char_index: line.start + line.text.length }
    : { type: 'page_location', ...common, start_page_number: line.page, end_page_number: line.page + 1 };
}

/**
 * The answer to "where does the document show each of these values": per asked field, its name as the model's own
 * text, then the line that shows the value as a cited block (its text the value, its citation the line), or "not
 * shown". A question without such a list gets the document's first line cited, as any answer would cite something.
 */
export function citedAnswer(document: CitableDocument, question: string): CitedBlock[] {
  const lines = linesOf(document).filter((line) => line.text.trim() !== '');
  const asked = askedValues(question);
  if (asked.length === 0) {
    const first = lines[0];
    return first ? [{ type: 'text', text: first.text, citations: [citationOf(first)] }] : [{ type: 'text', text: 'The document is empty.', citations: null }];
  }
  return asked.flatMap(([name, value], index): CitedBlock[] => {
    const lead = `${index === 0 ? '' : '\n'}${name}: `;
    const line = lines.find((candidate) => shows(candidate.text, value));
    if (!line) return [{ type: 'text', text: `${lead}not shown`, citations: null }];
    return [
      { type: 'text', text: lead, citations: null },
      { type: 'text', text: value, citations: [citationOf(line)] },
    ];
  });
}
