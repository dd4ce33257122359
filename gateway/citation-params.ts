import type Anthropic from '@anthropic-ai/sdk';
import type { CitationRequest, CitedTextBlock, DocumentCitation } from './model-call';

/** A non-blank line of the document and where it starts in the text: one citable block. */
export interface CitableLine {
  text: string;
  start: number;
}

/** The text's non-blank lines (the API refuses empty text blocks), each with its offset in the text. */
export function citableLinesOf(text: string): CitableLine[] {
  const lines: CitableLine[] = [];
  let start = 0;
  for (const line of text.split('\n')) {
    if (line.trim() !== '') lines.push({ text: line, start });
    start += line.length + 1;
  }
  return lines;
}

/**
 * A citations request: the text as a custom-content `document` block, one text block per line, with citations
 * enabled, then the question. One block per line because the API cites a custom-content document block by block
 * (`content_block_location`) and chunks a plain-text one into sentences, which an invoice's lines, without full
 * stops, are not: a sentence could run over the whole invoice. Citations are enabled on every document of the
 * request (the API takes all or none) and no `output_config` is sent (the API refuses citations beside structured
 * outputs). The system prompt carries a cache breakpoint, as every call's does.
 */
export function citationParams(request: CitationRequest): Anthropic.MessageCreateParamsNonStreaming {
  const content = citableLinesOf(request.documentText).map((line): Anthropic.TextBlockParam => ({ type: 'text', text: line.text }));
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    system: [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'document', source: { type: 'content', content }, citations: { enabled: true } },
          { type: 'text', text: request.instruction },
        ],
      },
    ],
  };
}

/** What the provider tokenizes as text in a citations request, as promptCharactersOf counts a tool call's. */
export function citationPromptCharacters(request: CitationRequest): number {
  return request.system.length + request.documentText.length + request.instruction.length;
}

/**
 * The answer's text blocks with their citations, a cited range of lines (`content_block_location`) turned back into
 * the characters of the text those lines span; search-result kinds are not asked for here.
 */
export function citedBlocksOf(message: Anthropic.Message, lines: readonly CitableLine[]): CitedTextBlock[] {
  return message.content
    .filter((block): block is Anthropic.TextBlock => block.type === 'text')
    .map((block) => ({ text: block.text, citations: (block.citations ?? []).flatMap((citation) => documentCitationOf(citation, lines)) }));
}

function documentCitationOf(citation: Anthropic.TextCitation, lines: readonly CitableLine[]): DocumentCitation[] {
  if (citation.type === 'content_block_location') {
    const first = lines[citation.start_block_index];
    const last = lines[citation.end_block_index - 1];
    if (!first || !last) return [];
    return [{ type: 'char_location', citedText: citation.cited_text, startCharIndex: first.start, endCharIndex: last.start + last.text.length }];
  }
  if (citation.type === 'char_location') {
    return [{ type: 'char_location', citedText: citation.cited_text, startCharIndex: citation.start_char_index, endCharIndex: citation.end_char_index }];
  }
  if (citation.type === 'page_location') {
    return [{ type: 'page_location', citedText: citation.cited_text, startPageNumber: citation.start_page_number, endPageNumber: citation.end_page_number }];
  }
  return [];
}
