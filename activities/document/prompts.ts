import type { ToolSpec } from '../../gateway/model-call';
import { schemas } from '../../common/validation';
import { toolSchema } from '../tool-schema';

export const SUMMARIZE_CHUNK_SYSTEM =
  'You index long documents for search. Summarise the passage in two or three plain sentences that say what it ' +
  'covers, and list its key terms. Answer only through the summarize_chunk tool.';
export const SUMMARIZE_CHUNK_INSTRUCTION = 'Summarise the passage above.';
export const SUMMARIZE_CHUNK_TOOL: ToolSpec = {
  name: 'summarize_chunk',
  description: 'Record a short summary of the passage and its key terms.',
  inputSchema: toolSchema(schemas.chunkSummary),
};
export const SUMMARIZE_CHUNK_MAX_TOKENS = 400;

export const TRANSCRIBE_PAGE_SYSTEM =
  'You index long documents for search. The page is a scan: transcribe its text as written, in reading order, ' +
  'then summarise it in two or three plain sentences and list its key terms. Answer only through the ' +
  'transcribe_page tool.';
export const TRANSCRIBE_PAGE_INSTRUCTION = 'Transcribe and summarise the scanned page above.';
export const TRANSCRIBE_PAGE_TOOL: ToolSpec = {
  name: 'transcribe_page',
  description: 'Record the text of the scanned page, a short summary of it and its key terms.',
  inputSchema: toolSchema(schemas.pageTranscription),
};
/** A dense page is ~1,000 words: about 1,500 tokens of text, plus the summary. */
export const TRANSCRIBE_PAGE_MAX_TOKENS = 3_000;

export const SUMMARIZE_DOCUMENT_SYSTEM =
  'You write the overview of a long document from the summaries of its parts, given in order, one a line, each ' +
  'with its page range. Give the document a title, a summary of a few paragraphs and its key topics. Answer only ' +
  'through the summarize_document tool.';
export const SUMMARIZE_DOCUMENT_INSTRUCTION = 'Summarise the whole document from the part summaries above.';
export const SUMMARIZE_DOCUMENT_TOOL: ToolSpec = {
  name: 'summarize_document',
  description: 'Record the title, the summary and the key topics of the whole document.',
  inputSchema: toolSchema(schemas.documentSummary),
};
export const SUMMARIZE_DOCUMENT_MAX_TOKENS = 2_000;
/**
 * The part summaries sent to the reduce call are cut to fit this many characters in all (~75k tokens), so even a
 * 500-page document's reduce fits one call's context with room to answer.
 */
export const SUMMARIZE_DOCUMENT_MAX_CHARACTERS = 300_000;
