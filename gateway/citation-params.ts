import type Anthropic from '@anthropic-ai/sdk';
import type { CitationRequest, CitedTextBlock, DocumentCitation } from './model-call';

/**
 * A citations request: the text as a `document` block with citations enabled, then the question. Citations are
 * enabled on every document of the request (the API takes all or none) and no `output_config` is sent (the API
 * refuses citations beside structured outputs). The system prompt carries a cache breakpoint, as every call's does.
 */
export function citationParams(request: CitationRequest): Anthropic.MessageCreateParamsNonStreaming {
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    system: [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: request.documentText }, citations: { enabled: true } },
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

/** The answer's text blocks with their char/page citations; other kinds (content blocks, search results) are not asked for here. */
export function citedBlocksOf(message: Anthropic.Message): CitedTextBlock[] {
  return message.content
    .filter((block): block is Anthropic.TextBlock => block.type === 'text')
    .map((block) => ({ text: block.text, citations: (block.citations ?? []).flatMap(documentCitationOf) }));
}

function documentCitationOf(citation: Anthropic.TextCitation): DocumentCitation[] {
  if (citation.type === 'char_location') {
    return [{ type: 'char_location', citedText: citation.cited_text, startCharIndex: citation.start_char_index, endCharIndex: citation.end_char_index }];
  }
  if (citation.type === 'page_location') {
    return [{ type: 'page_location', citedText: citation.cited_text, startPageNumber: citation.start_page_number, endPageNumber: citation.end_page_number }];
  }
  return [];
}
