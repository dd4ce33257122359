import { Context } from '@temporalio/activity';
import { ModelOutputInvalidError } from '../../common/errors';
import { describeChunk } from '../../common/job-types/document/chunk-groups';
import { validateDocumentSummary } from '../../common/validation';
import type { ModelGateway } from '../../gateway/model-call';
import type { ObjectStore } from '../../lib/object-store';
import { withHeartbeats } from '../heartbeat';
import { usageOfCall } from '../usage';
import type { DocumentChunksInput, SummarizeDocumentResult } from './document-contracts';
import { documentKeys } from './document-keys';
import {
  SUMMARIZE_DOCUMENT_INSTRUCTION,
  SUMMARIZE_DOCUMENT_MAX_CHARACTERS,
  SUMMARIZE_DOCUMENT_MAX_TOKENS,
  SUMMARIZE_DOCUMENT_SYSTEM,
  SUMMARIZE_DOCUMENT_TOOL,
} from './document-prompts';
import { readChunkRecords } from './read-chunk-records';

/** The reduce step: one summary of the whole document, written from the chunk summaries in page order. */
export function createSummarizeDocument(deps: { store: ObjectStore; gateway: ModelGateway; summarizeModel: string }) {
  return async function summarizeDocument(input: DocumentChunksInput): Promise<SummarizeDocumentResult> {
    const { attempt } = Context.current().info;
    const records = await readChunkRecords(deps.store, input.prefix, input.chunks);
    // Each line cut to its share of the budget, so a long document still fits one call.
    const perLine = Math.max(80, Math.floor(SUMMARIZE_DOCUMENT_MAX_CHARACTERS / Math.max(1, records.length)));
    const lines = records.map((record) => `[${describeChunk(record.index, record)}] ${record.summary.slice(0, perLine)}`);
    return withHeartbeats(async (signal) => {
      const answer = await deps.gateway.callTool({
        jobId: input.jobId,
        tenantId: input.tenantId,
        priority: input.priority,
        model: deps.summarizeModel,
        system: SUMMARIZE_DOCUMENT_SYSTEM,
        documentText: lines.join('\n'),
        instruction: SUMMARIZE_DOCUMENT_INSTRUCTION,
        tool: SUMMARIZE_DOCUMENT_TOOL,
        maxTokens: SUMMARIZE_DOCUMENT_MAX_TOKENS,
        signal,
      });
      const usage = usageOfCall(answer.usage);
      const summary = validateDocumentSummary(answer.toolInput);
      if (!summary.ok) {
        throw new ModelOutputInvalidError(`the document summary broke its schema: ${summary.errors.slice(0, 3).join('; ')}`, {
          details: { billedUsage: usage },
        });
      }
      const summaryKey = documentKeys.summary(input.prefix);
      const body = { ...summary.value, pages: input.pages, chunks: input.chunks, model: answer.model };
      await deps.store.put(summaryKey, JSON.stringify(body, null, 2), { contentType: 'application/json' });
      return { summaryKey, title: summary.value.title, usage, attempt };
    });
  };
}
