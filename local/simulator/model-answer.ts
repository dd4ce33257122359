import type { CitedBlock } from './citations';

/** What the simulated model decided to say, before it is dressed as a Messages API response. */
export type ModelAnswer =
  | { kind: 'tool_use'; tool: string; input: object }
  | { kind: 'text'; text: string }
  | { kind: 'refusal'; text: string }
  /** Text blocks with citations, for a request whose documents enable them (citations.ts). */
  | { kind: 'cited'; blocks: CitedBlock[] };
