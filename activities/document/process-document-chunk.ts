import { Context } from '@temporalio/activity';
import { ModelOutputInvalidError } from '../../common/errors';
import { emptyUsage } from '../../common/job-types/document/document-job';
import type { Usage } from '../../common/job';
import { validateChunkSummary, validatePageTranscription, type ValidationResult } from '../../common/validation';
import type { EmbeddingsGateway } from '../../gateway/embeddings/embeddings-call';
import type { FromBatch } from '../../common/batch-lane';
import type { BatchToolCall } from '../../gateway/batch/message-batches';
import type { ProviderFiles } from '../../gateway/files/provider-files';
import type { ModelGateway, ToolCallResult } from '../../gateway/model-call';
import type { ObjectStore } from '../../lib/object-store';
import type { BatchLaneDeps } from '../batch-lane/batch-lane-deps';
import { firstCallFromBatch } from '../batch-lane/first-call-from-batch';
import { withHeartbeats } from '../heartbeat';
import { forgettingMissingFile, scanAsProviderFile } from '../provider-file-media';
import { usageOfCall } from '../usage';
import { estimateTokens } from './chunk-pages';
import { type ChunkEmbedding, ChunkPartial, type PaidPart } from './chunk-partial';
import type { ChunkTexts } from './chunk-texts';
import type { ProcessDocumentChunkInput, ProcessDocumentChunkResult } from './contracts';
import { documentKeys } from './document-keys';
import { type StoredChunk, readStoredChunk, writeStoredChunk } from './stored-chunk';
import {
  SUMMARIZE_CHUNK_INSTRUCTION,
  SUMMARIZE_CHUNK_MAX_TOKENS,
  SUMMARIZE_CHUNK_SYSTEM,
  SUMMARIZE_CHUNK_TOOL,
  TRANSCRIBE_PAGE_INSTRUCTION,
  TRANSCRIBE_PAGE_MAX_TOKENS,
  TRANSCRIBE_PAGE_SYSTEM,
  TRANSCRIBE_PAGE_TOOL,
} from './prompts';

export interface ProcessDocumentChunkDeps {
  store: ObjectStore;
  gateway: ModelGateway;
  embeddings: EmbeddingsGateway;
  summarizeModel: string;
  /** The Message Batches lane, where a bulk job's summary or transcription may have been answered (`fromBatch`). */
  lane?: BatchLaneDeps;
  /** The Files API (MODEL_FILES_API): a scanned page is uploaded once and its live call names it by id. */
  files?: ProviderFiles;
  texts: ChunkTexts;
}

type ChunkCallDeps = Pick<ProcessDocumentChunkDeps, 'summarizeModel'>;

/** Which of a chunk's records are in S3: its result, and the parts of it already paid for. */
export interface StoredRecords {
  result: boolean;
  partial: boolean;
}

/** A text chunk's summary call: what the step sends live, and what its batch entry carries. */
export function chunkSummaryCall(deps: ChunkCallDeps, input: ProcessDocumentChunkInput, text: string): BatchToolCall {
  return {
    jobId: input.jobId,
    tenantId: input.tenantId,
    priority: input.priority,
    model: deps.summarizeModel,
    system: SUMMARIZE_CHUNK_SYSTEM,
    documentText: text,
    instruction: SUMMARIZE_CHUNK_INSTRUCTION,
    tool: SUMMARIZE_CHUNK_TOOL,
    maxTokens: SUMMARIZE_CHUNK_MAX_TOKENS,
  };
}

/** A scanned page's transcription call (the page as a one-page PDF): live, or as its batch entry. */
export function pageTranscriptionCall(deps: ChunkCallDeps, input: ProcessDocumentChunkInput, scan: Buffer): BatchToolCall {
  return {
    jobId: input.jobId,
    tenantId: input.tenantId,
    priority: input.priority,
    model: deps.summarizeModel,
    system: TRANSCRIBE_PAGE_SYSTEM,
    documentText: '',
    documentMedia: { mediaType: 'application/pdf', base64: scan.toString('base64'), pages: 1 },
    instruction: TRANSCRIBE_PAGE_INSTRUCTION,
    tool: TRANSCRIBE_PAGE_TOOL,
    maxTokens: TRANSCRIBE_PAGE_MAX_TOKENS,
  };
}

/** The chunk's model call, read from S3 as the step reads it: a scanned page's transcription or a text's summary. */
export async function firstChunkCall(
  deps: ChunkCallDeps & { store: ObjectStore; texts: ChunkTexts },
  input: ProcessDocumentChunkInput,
): Promise<BatchToolCall> {
  if (input.span.scanned) return pageTranscriptionCall(deps, input, await deps.store.getBytes(documentKeys.chunkScan(input.prefix, input.index)));
  return chunkSummaryCall(deps, input, await deps.texts.textOf(input));
}

/**
 * The map step of one chunk: its embedding (embeddings provider) and its short summary (Messages API), both
 * counted against the tenant's spend caps, written to S3 as one object. A result already in S3 is an attempt that
 * finished and was never reported (the worker died in between): it is returned as it is, so no call is paid for
 * twice; nor is a call whose answer an earlier attempt kept (chunk-partial.ts: the other call was refused by the
 * cap or failed). A scanned page's chunk is read by the model from the page itself (a one-page PDF): one call
 * transcribes and summarises it, then its text is embedded. With `embedInGroup` the chunk is stored without its
 * vector, and its group embeds its chunks in a few requests (embed-document-chunks.ts).
 */
export function createProcessDocumentChunk(deps: ProcessDocumentChunkDeps) {
  /** `stored`: what a listing of the chunks' records just showed (the group step's), so neither lookup is made. */
  return async function processDocumentChunk(input: ProcessDocumentChunkInput & FromBatch, stored?: StoredRecords): Promise<ProcessDocumentChunkResult> {
    const { attempt } = Context.current().info;
    const resultKey = documentKeys.chunkResult(input.prefix, input.index);
    const partialKey = documentKeys.chunkPartial(input.prefix, input.index);
    // Both looked up at once: each is a round trip to S3, and the first attempt finds neither.
    const [finished, partial] = await Promise.all([
      stored ? stored.result : deps.store.exists(resultKey),
      stored && !stored.partial ? ChunkPartial.none(deps.store, partialKey) : ChunkPartial.read(deps.store, partialKey),
    ]);
    if (finished) {
      const stored = await readStoredChunk(deps.store, input.prefix, input.index);
      return { index: input.index, usage: stored.usageReported ? emptyUsage() : stored.usage, reused: true, attempt };
    }
    if (input.span.scanned) return processScannedPage(deps, input, partial, attempt);
    const text = await deps.texts.textOf(input);
    const request = chunkSummaryCall(deps, input, text);
    const fromBatch = await firstCallFromBatch(deps.lane, input, request);
    return withHeartbeats(async (signal) => {
      const call = { jobId: input.jobId, tenantId: input.tenantId, priority: input.priority, signal };
      await partial.pay({
        ...(input.embedInGroup ? {} : { embedding: () => embedText(deps, call, text) }),
        answer: async () => {
          const summarized = fromBatch ?? (await deps.gateway.callTool({ ...request, signal }));
          const usage = usageOfCall(summarized.usage);
          return { value: checkedAnswer(validateChunkSummary(summarized.toolInput), 'chunk summary', usage), usage };
        },
      });
      const summary = checkedAnswer(validateChunkSummary(partial.value('answer')), 'kept chunk summary', emptyUsage());
      return storeChunk(deps.store, input, attempt, {
        index: input.index,
        firstPage: input.span.firstPage,
        lastPage: input.span.lastPage,
        tokens: estimateTokens(text),
        text,
        summary: summary.summary,
        keyTerms: summary.keyTerms,
        ...embeddingOf(partial),
        usage: partial.uncountedUsage(),
      });
    });
  };
}

type ChunkCall = { jobId: string; tenantId: string; priority: ProcessDocumentChunkInput['priority']; signal: AbortSignal };

async function embedText(deps: ProcessDocumentChunkDeps, call: ChunkCall, text: string): Promise<PaidPart<ChunkEmbedding>> {
  const embedded = await deps.embeddings.embed({ ...call, inputs: [text], inputType: 'document' });
  return { value: { vector: embedded.vectors[0] ?? [], model: embedded.model }, usage: usageOfCall(embedded.usage) };
}

async function processScannedPage(
  deps: ProcessDocumentChunkDeps,
  input: ProcessDocumentChunkInput & FromBatch,
  partial: ChunkPartial,
  attempt: number,
): Promise<ProcessDocumentChunkResult> {
  // A kept transcription needs neither the page nor its call.
  const scan = partial.has('answer') ? undefined : await deps.store.getBytes(documentKeys.chunkScan(input.prefix, input.index));
  const request = scan && pageTranscriptionCall(deps, input, scan);
  const fromBatch = request && (await firstCallFromBatch(deps.lane, input, request));
  return withHeartbeats(async (signal) => {
    const call = { jobId: input.jobId, tenantId: input.tenantId, priority: input.priority, signal };
    if (request) {
      await partial.pay({
        answer: async () => {
          const transcribed = fromBatch ?? (await transcribeLive(deps, input, request, scan, signal));
          const usage = usageOfCall(transcribed.usage);
          return { value: checkedAnswer(validatePageTranscription(transcribed.toolInput), 'page transcription', usage), usage };
        },
      });
    }
    const page = checkedAnswer(validatePageTranscription(partial.value('answer')), 'kept page transcription', emptyUsage());
    if (!input.embedInGroup) await partial.pay({ embedding: () => embedText(deps, call, textToEmbed(page)) });
    return storeChunk(deps.store, input, attempt, {
      index: input.index,
      firstPage: input.span.firstPage,
      lastPage: input.span.lastPage,
      tokens: estimateTokens(page.text),
      text: page.text,
      summary: page.summary,
      keyTerms: page.keyTerms,
      ...embeddingOf(partial),
      usage: partial.uncountedUsage(),
    });
  });
}

/**
 * The page's live transcription call: with the Files API the page is uploaded once for the job and named by id,
 * so a retried call does not send it again; a batch entry keeps it inline (docs/gateway.md#files-api).
 */
async function transcribeLive(
  deps: ProcessDocumentChunkDeps,
  input: ProcessDocumentChunkInput,
  request: BatchToolCall,
  scan: Buffer | undefined,
  signal: AbortSignal,
): Promise<ToolCallResult> {
  if (!deps.files || !scan) return deps.gateway.callTool({ ...request, signal });
  const key = documentKeys.chunkScan(input.prefix, input.index);
  const page = { key, mediaType: 'application/pdf' as const, pages: 1, read: async () => scan };
  const documentMedia = await scanAsProviderFile({ store: deps.store, files: deps.files }, input, page, signal);
  return forgettingMissingFile(deps.store, input, key, () => deps.gateway.callTool({ ...request, documentMedia, signal }));
}

/** The model's answer, or the step's failure with what it cost (the calls were paid for either way). */
function checkedAnswer<T>(checked: ValidationResult<T>, what: string, usage: Usage): T {
  if (checked.ok) return checked.value;
  throw new ModelOutputInvalidError(`the ${what} broke its schema: ${checked.errors.slice(0, 3).join('; ')}`, {
    details: { billedUsage: usage },
  });
}

/** What is embedded of a chunk: its text, or for a page of pictures only its summary, which stands in for it in the search index. */
export function textToEmbed(chunk: { text: string; summary: string }): string {
  return chunk.text.trim() || chunk.summary;
}

/** The chunk's vector when this step paid for it (none when its group embeds it). */
function embeddingOf(partial: ChunkPartial): Pick<StoredChunk, 'embedding' | 'embeddingModel'> {
  if (!partial.has('embedding')) return {};
  const embedded = partial.value('embedding');
  return { embedding: embedded.vector, embeddingModel: embedded.model };
}

async function storeChunk(store: ObjectStore, input: ProcessDocumentChunkInput, attempt: number, record: StoredChunk): Promise<ProcessDocumentChunkResult> {
  await writeStoredChunk(store, input.prefix, record);
  return { index: record.index, usage: record.usage, reused: false, attempt };
}
