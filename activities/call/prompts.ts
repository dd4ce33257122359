import { CallSummary } from '../../common/job-types/call/call-summary';
import type { TextPrompt } from '../call-model-on-text';

/** The TypeBox schema as plain JSON Schema: the model sees the very schema ajv checks its answer with. */
const plain = (schema: object): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

/** The call summary's prompt: the transcript, a line per segment `[mm:ss] speaker: text`, is the document. */
export const CALL_SUMMARY_PROMPT: TextPrompt = {
  system:
    'You read transcripts of recorded support and sales calls for the team that follows them up. Each line of the ' +
    'document is one segment: `[mm:ss] speaker: text` (the speaker is missing when the recording did not tell them ' +
    'apart). The transcript was made by a machine and may mishear words. Answer only through the summarize_call tool.',
  instruction:
    'Summarise the call above in a few sentences, list every action item someone agreed to with its owner as the ' +
    'call names them (null when nobody took it on), and say how the call ended for the caller.',
  tool: {
    name: 'summarize_call',
    description: "Record a call's summary, its action items with owners, and its outcome.",
    inputSchema: plain(CallSummary),
  },
  maxTokens: 2_048,
};
