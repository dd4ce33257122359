import { Context } from '@temporalio/activity';
import type { ObjectStore } from '../../lib/object-store';
import { withHeartbeats } from '../heartbeat';
import type { DocumentChunksInput, WriteDocumentChunksResult } from './contracts';
import { documentKeys } from './document-keys';
import { readChunkRecords } from './read-chunk-records';

/** The search index's input: every chunk with its page range, text, summary and vector, one JSON object a line. */
export function createWriteDocumentChunks(deps: { store: ObjectStore }) {
  return async function writeDocumentChunks(input: DocumentChunksInput): Promise<WriteDocumentChunksResult> {
    const { attempt } = Context.current().info;
    return withHeartbeats(async () => {
      const records = await readChunkRecords(deps.store, input.prefix, input.chunks);
      const jsonl = records.map((record) => JSON.stringify(record)).join('\n') + '\n';
      const chunksKey = documentKeys.chunksJsonl(input.prefix);
      await deps.store.put(chunksKey, jsonl, { contentType: 'application/jsonl' });
      return { chunksKey, bytes: Buffer.byteLength(jsonl), attempt };
    });
  };
}
