import type { IncomingHttpHeaders } from 'node:http';
import { apiError, type ApiError } from '../api-errors';
import { isRecord } from '../messages-request';
import type { FileStore } from './file-store';
import { filesBetaProblem } from './files-beta';

/**
 * Replaces every `{ source: { type: 'file', file_id } }` of an image or document block with the file's bytes as a
 * base64 source, so the rest of the simulator reads it as an inline scan. A request naming a file needs the beta
 * header (400) and a file the store holds (404, as for a deleted file). Mutates `messages` in place.
 */
export function resolveFileSources(messages: unknown, headers: IncomingHttpHeaders, files: FileStore): ApiError | null {
  if (!Array.isArray(messages)) return null;
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message) || !Array.isArray(message.content)) continue;
    for (const [position, block] of message.content.entries()) {
      if (!isRecord(block) || !isRecord(block.source) || block.source.type !== 'file') continue;
      const beta = filesBetaProblem(headers);
      if (beta) return beta;
      const id = block.source.file_id;
      const file = typeof id === 'string' ? files.get(id) : undefined;
      if (!file) return apiError('not_found_error', `messages.${index}.content.${position}.source.file_id: File not found: ${String(id)}`);
      files.noteRead(file.metadata.id);
      block.source = { type: 'base64', media_type: file.metadata.mime_type, data: file.bytes.toString('base64') };
    }
  }
  return null;
}

/** The same for each entry of a Message Batch: resolved when the batch is created (the simulator keeps no files per entry). */
export function resolveBatchFileSources(body: unknown, headers: IncomingHttpHeaders, files: FileStore): ApiError | null {
  if (!isRecord(body) || !Array.isArray(body.requests)) return null;
  for (const entry of body.requests) {
    if (!isRecord(entry) || !isRecord(entry.params)) continue;
    const problem = resolveFileSources(entry.params.messages, headers, files);
    if (problem) return problem;
  }
  return null;
}
