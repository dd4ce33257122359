import { Context } from '@temporalio/activity';
import { ModelOutputInvalidError } from '../../common/errors';
import { describeChunk } from '../../common/job-types/document/chunk-groups';
import { validateDocumentSummary } from '../../common/validation';
import type { FromBatch } from '../../common/batch-lane';
import type { BatchToolCall } from '../../gateway/batch/message-batches';
import type { ModelGateway } from '../../gateway/model-call';
import type { ObjectStore } from '../../lib/object-store';
import type { BatchLaneDeps } from '../batch-lane/batch-lane-deps';
import { firstCallFromBatch } from '../batch-lane/first-call-from-batch';
import { withHeartbeats } from '../heartbeat';
import { usageOfCall } from '../usage';
import type { DocumentChunksInput, SummarizeDocumentResult } from './contracts';
import { documentKeys } from './document-keys';
import {
  SUMMARIZE_DOCUMENT_INSTRUCTION,
  SUMMARIZE_DOCUMENT_MAX_CHARACTERS,
  SUMMARIZE_DOCUMENT_MAX_TOKENS,
  SUMMARIZE_DOCUMENT_SYSTEM,
  SUMMARIZE_DOCUMENT_TOOL,
} from './prompts';
import { readWrittenChunkRecords } from './read-chunk-records';

export interface SummarizeDocumentDeps {
  store: ObjectStore;
  gateway: ModelGateway;
  summarizeModel: string;
  /** The Message Batches lane, where a bulk job's reduce may have been answered (`fromBatch`). */
  lane?: BatchLaneDeps;
}

/** The reduce call, written from the chunk summaries in page order: live, or as its batch entry. */
export async function documentSummaryCall(
  deps: Pick<SummarizeDocumentDeps, 'store' | 'summarizeModel'>,
  input: DocumentChunksInput,
): Promise<BatchToolCall> {
  const records = await readWrittenChunkRecords(deps.store, input.prefix, input.chunks);
  // Each line cut to its share of the budget, so a long document still fits one call.
  const perLine = Math.max(80, Math.floor(SUMMARIZE_DOCUMENT_MAX_CHARACTERS / Math.max(1, records.length)));
  const lines = records.map((record) => `[${describeChunk(record.index, record)}] ${record.summary.slice(0, perLine)}`);
  return {
    jobId: input.jobId,
    tenantId: input.tenantId,
    priority: input.priority,
    model: deps.summarizeModel,
    system: SUMMARIZE_DOCUMENT_SYSTEM,
    documentText: lines.join('\n'),
    instruction: SUMMARIZE_DOCUMENT_INSTRUCTION,
    tool: SUMMARIZE_DOCUMENT_TOOL,
    maxTokens: SUMMARIZE_DOCUMENT_MAX_TOKENS,
  };
}

/** The reduce step: one summary of the whole document, written from the chunk summaries in page order. */
export function createSummarizeDocument(deps: SummarizeDocumentDeps) {
  return async function summarizeDocument(input: DocumentChunksInput & FromBatch): Promise<SummarizeDocumentResult> {
    const { attempt } = Context.current().info;
    const request = await documentSummaryCall(deps, input);
    const fromBatch = await firstCallFromBatch(deps.lane, input, request);
    return withHeartbeats(async (signal) => {
      const answer = fromBatch ?? (await deps.gateway.callTool({ ...request, signal }));
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
