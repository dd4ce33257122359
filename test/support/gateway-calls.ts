import { EXTRACT_INSTRUCTION, EXTRACT_MAX_TOKENS, EXTRACT_SYSTEM, EXTRACT_TOOL } from '../../activities/invoice/prompts';
import type { Priority } from '../../common/task-queues';
import type { ToolCallRequest } from '../../gateway/model-call';

/** A small invoice the simulator's reader understands, carrying a marker to find its calls in /_sim/calls. */
export function markedInvoiceText(marker: string): string {
  return [
    'INVOICE',
    `Reference: ${marker}`,
    'Invoice number: INV-2024-0042',
    'Invoice date: 2024-03-15',
    'Seller: Northwind Traders Inc.',
    'Total: 120.00 EUR',
  ].join('\n');
}

/** The extraction call the workers make, for one marked document. */
export function gatewayTestCall(marker: string, priority: Priority): ToolCallRequest {
  return {
    jobId: `test/${marker}`,
    priority,
    model: 'claude-sonnet-4-6',
    system: EXTRACT_SYSTEM,
    documentText: markedInvoiceText(marker),
    instruction: EXTRACT_INSTRUCTION,
    tool: EXTRACT_TOOL,
    maxTokens: EXTRACT_MAX_TOKENS,
  };
}
