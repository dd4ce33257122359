import { summarizeCall } from './call/summarize-call';
import { writeDigestNarrative } from './digest/digest-narrative';
import { summariseTickets } from './digest/summarise-tickets';
import { classifyDocument } from './reader/classify';
import { readInvoice } from './reader/read-invoice';
import { scoreOrder } from './reader/score-order';
import type { ModelAnswer } from './model-answer';
import { summarizeChunk, summarizeDocument } from './summarizer/summarize';

/** The tools the rule-based "model" can answer; Slowlane's workers force one of them per call. */
const TOOLS: Record<string, (documentText: string) => object> = {
  classify_document: classifyDocument,
  record_invoice: readInvoice,
  score_order: scoreOrder,
  summarize_chunk: summarizeChunk,
  summarize_document: summarizeDocument,
  summarise_tickets: summariseTickets,
  write_digest_narrative: writeDigestNarrative,
  summarize_call: summarizeCall,
};

export const KNOWN_TOOLS: readonly string[] = Object.keys(TOOLS);

export function answerFor(tool: string | null, documentText: string): ModelAnswer {
  const run = tool === null ? undefined : TOOLS[tool];
  if (tool === null || !run) {
    return {
      kind: 'text',
      text: `This simulated model only knows the tools ${KNOWN_TOOLS.join(', ')}; force one with tool_choice.`,
    };
  }
  return { kind: 'tool_use', tool, input: run(documentText) };
}

/** What the simulator "reads" on any scanned page of a long document: fixed words, so tests can find them. */
export const SCANNED_PAGE_TRANSCRIPTION = {
  text: 'Simulated transcription of a scanned page. The simulator cannot read pixels, so every scan reads alike.',
  summary: 'A scanned page, transcribed by the simulated model.',
  keyTerms: ['scanned page'],
};

/**
 * The answer to a scan (an image, or a PDF without text): the rule-based reader cannot see pixels, so it says what
 * a careful model unsure of a blurry scan would — an invoice, probably, with every field unread and no confidence
 * — which sends the job to a person, who reads the image on the reviewer page.
 */
export function answerForScan(tool: string | null): ModelAnswer {
  if (tool === 'classify_document') {
    return { kind: 'tool_use', tool, input: { documentType: 'invoice', confidence: 0.4, reason: 'A scanned page; no text to read it by.' } };
  }
  if (tool === 'record_invoice') return { kind: 'tool_use', tool, input: readInvoice('') };
  if (tool === 'transcribe_page') return { kind: 'tool_use', tool, input: SCANNED_PAGE_TRANSCRIPTION };
  return answerFor(tool, '');
}
