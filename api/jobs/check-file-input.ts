import { readFile } from 'node:fs/promises';
import type { JobTypeDefinition } from '../../common/job-types/job-type';
import { parseJsonLines } from '../../common/job-types/json-lines';
import { ApiError, apiErrors } from '../api-error';
import type { ReceivedUpload } from '../multipart-upload';

/**
 * Holds an upload to what its job type accepts (the definition's file kinds): the kind of file, its size, and for a
 * JSONL kind every line against its schema, so a bad export is a 4xx naming its first bad line instead of a job
 * that fails minutes later.
 */
export async function checkFileInput(definition: JobTypeDefinition, upload: ReceivedUpload): Promise<void> {
  if (definition.input.kind !== 'file') return;
  const kind = definition.input.accepts.find((accepted) => accepted.contentType === upload.contentType);
  if (!kind) {
    const accepted = definition.input.accepts.map((accepted) => (accepted.jsonLines ? 'JSONL text' : accepted.contentType)).join(' or ');
    throw new ApiError(415, 'unsupported_media_type', `a ${definition.name} job takes ${accepted}, judged by the file's bytes`);
  }
  if (kind.maxBytes !== undefined && upload.sizeBytes > kind.maxBytes) throw apiErrors.payloadTooLarge(kind.maxBytes);
  if (!kind.jsonLines) return;
  const checked = parseJsonLines(await readFile(upload.path, 'utf8'), kind.jsonLines);
  if (checked.ok) return;
  if (checked.kind === 'too_many') {
    throw new ApiError(413, 'payload_too_large', `the file has more than ${checked.limit} lines; split it`, { limitLines: checked.limit });
  }
  throw apiErrors.invalidRequest(checked.message, { field: 'file', line: checked.line });
}
