import type { ToolSpec } from '../../gateway/model-call';
import type { TextPrompt } from '../call-model-on-text';
import { DigestNarrative, TicketBatchSummary } from '../../common/job-types/tickets-digest/digest';

/** The TypeBox schema as plain JSON Schema: the model sees the very schema ajv checks its answer with. */
const plain = (schema: object): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

export const SUMMARISE_SYSTEM =
  'You read support tickets for a support lead. Each line of the document is one ticket: ' +
  '`id | priority | channel | subject | body`. Group the tickets under short lower-case themes (one theme per ' +
  'ticket, reuse common names such as "billing", "login", "shipping", "bug", "feature request"), and list the ' +
  'tickets that need a person today with a one-line reason. Answer only through the summarise_tickets tool.';
export const SUMMARISE_INSTRUCTION = 'Summarise the tickets above: every ticket id under one theme, and the urgent ones.';
export const SUMMARISE_TOOL: ToolSpec = {
  name: 'summarise_tickets',
  description: 'Record the themes of a batch of tickets (with every ticket id under one theme) and the urgent tickets.',
  inputSchema: plain(TicketBatchSummary),
};
/** About ten tokens per ticket id under its theme, for the largest batch, with room to spare. */
export const SUMMARISE_MAX_TOKENS = 8_192;
/** The batch summary's prompt: the live step and its batch entry send the same one. */
export const SUMMARISE_PROMPT: TextPrompt = {
  system: SUMMARISE_SYSTEM,
  instruction: SUMMARISE_INSTRUCTION,
  tool: SUMMARISE_TOOL,
  maxTokens: SUMMARISE_MAX_TOKENS,
};

export const NARRATIVE_SYSTEM =
  'You write the daily support digest for a support lead: three to five plain sentences on the volume, the main ' +
  'themes and what needs attention today. Each line of the document is one fact, `kind | values`. ' +
  'Answer only through the write_digest_narrative tool.';
export const NARRATIVE_INSTRUCTION = 'Write the narrative of the digest from the facts above.';
export const NARRATIVE_TOOL: ToolSpec = {
  name: 'write_digest_narrative',
  description: 'Record the narrative of the daily support digest.',
  inputSchema: plain(DigestNarrative),
};
export const NARRATIVE_MAX_TOKENS = 1_024;
