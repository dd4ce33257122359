import { createHash } from 'node:crypto';
import type { MessagesRequest } from './messages-request';

/**
 * Whether the request hands the model its last tool call back with an error result (`tool_result` with
 * `is_error: true`) — how a client says "your answer failed the schema, here is why".
 */
export function isRepairRequest(request: MessagesRequest): boolean {
  const last = request.messages.at(-1);
  if (last?.role !== 'user' || typeof last.content === 'string') return false;
  return last.content.some((block) => block.type === 'tool_result' && block.is_error === true);
}

/**
 * Whether the model fixes its answer when told what was wrong: true for a share `rate` of requests, decided by a
 * hash of the request itself, so the same request always gets the same answer whatever else the simulator serves.
 */
export function repairSucceeds(request: MessagesRequest, rate: number): boolean {
  const digest = createHash('sha256').update(JSON.stringify(request)).digest();
  return digest.readUInt32BE(0) / 0x1_0000_0000 < rate;
}
