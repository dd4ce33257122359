import { log } from '@temporalio/activity';
import type { DocumentMedia } from '../common/model-media';
import type { ValidationResult } from '../common/validation';
import type { ProviderFiles } from '../gateway/files/provider-files';
import type { ModelGateway, ToolCallRequest, ToolCallResult, ToolSpec } from '../gateway/model-call';
import type { ObjectStore } from '../lib/object-store';
import type { FromBatch } from '../common/batch-lane';
import type { BatchToolCall } from '../gateway/batch/message-batches';
import type { BatchLaneDeps } from './batch-lane/batch-lane-deps';
import { firstCallFromBatch } from './batch-lane/first-call-from-batch';
import type { JobContext, ModelStepInput } from './step-contracts';
import { withHeartbeats } from './heartbeat';
import { forgettingMissingFile, scanAsProviderFile } from './provider-file-media';
import { answerWithRepairs, type RepairedAnswer } from './repair-loop';

export interface ModelStepDeps {
  store: ObjectStore;
  gateway: ModelGateway;
  model: string;
  /** Calls after a schema-invalid answer that show the model what was wrong (MODEL_REPAIR_TRIES). */
  repairTries: number;
  /** The Message Batches lane, where a bulk job's first call may have been answered (`fromBatch`). */
  lane?: BatchLaneDeps;
  /** The Files API (MODEL_FILES_API): a scan is uploaded once and named by id in each live call. */
  files?: ProviderFiles;
}

export interface TextPrompt {
  system: string;
  instruction: string;
  tool: ToolSpec;
  maxTokens: number;
  /** Only the head of the text is sent when set (classification needs no more). */
  maxCharacters?: number;
}

/** What the model reads: text, or a scan's bytes (then `documentText` is empty). */
export interface ModelDocument {
  documentText: string;
  documentMedia?: DocumentMedia;
}

/**
 * Asks the model for the prompt's tool about the document, heartbeating meanwhile (a cancel aborts the call); an
 * answer that fails `validate` is sent back with the validator's errors (activities/repair-loop.ts).
 */
export function askWithRepairs<T>(
  deps: Omit<ModelStepDeps, 'store'>,
  job: JobContext,
  { documentText, documentMedia }: ModelDocument,
  prompt: Omit<TextPrompt, 'maxCharacters'>,
  validate: (toolInput: unknown) => ValidationResult<T>,
  /** The first answer when it came another way (the batch lane): only repairs are asked here, live. */
  firstAnswer?: ToolCallResult,
): Promise<RepairedAnswer<T>> {
  return answerWithRepairs({
    validate,
    repairTries: deps.repairTries,
    ask: (repair, moreCallsFollow) =>
      !repair && firstAnswer
        ? Promise.resolve(firstAnswer)
        : withHeartbeats((signal) =>
            deps.gateway.callTool({
              ...toolCallOf(deps, job, { documentText, ...(documentMedia ? { documentMedia } : {}) }, prompt),
              // The document is worth a cache write only when another call on it is planned.
              cacheDocument: moreCallsFollow,
              ...(repair ? { repair } : {}),
              signal,
            }),
          ),
  });
}

/** The first call of a step on a document, as the live path sends it and as a batch entry carries it. */
export function toolCallOf(
  deps: { model: string },
  job: JobContext,
  { documentText, documentMedia }: ModelDocument,
  prompt: Omit<TextPrompt, 'maxCharacters'>,
): Omit<ToolCallRequest, 'signal'> {
  return {
    jobId: job.jobId,
    tenantId: job.tenantId,
    priority: job.priority,
    model: deps.model,
    system: prompt.system,
    documentText,
    ...(documentMedia ? { documentMedia } : {}),
    instruction: prompt.instruction,
    tool: prompt.tool,
    maxTokens: prompt.maxTokens,
  };
}

/** The first call of a model step on the job's document: what the step sends live, and what its batch entry carries. */
export async function firstModelStepCall(deps: ModelStepDeps, input: ModelStepInput, prompt: TextPrompt): Promise<BatchToolCall> {
  return toolCallOf(deps, input, await documentFor(deps.store, input, prompt.maxCharacters), prompt);
}

/**
 * Reads the job's extracted text (or its scan) from S3 once and asks the model about it (askWithRepairs); the first
 * call's answer comes from the batch lane when the job took it.
 */
export async function callModelOnText<T>(
  deps: ModelStepDeps,
  input: ModelStepInput & FromBatch,
  prompt: TextPrompt,
  validate: (toolInput: unknown) => ValidationResult<T>,
): Promise<RepairedAnswer<T>> {
  const document = await liveDocumentFor(deps, input, prompt.maxCharacters);
  const first = await firstCallFromBatch(deps.lane, input, { model: deps.model, tool: prompt.tool });
  const ask = () => askWithRepairs(deps, input, document, prompt, validate, first);
  const answer = input.visual ? await forgettingMissingFile(deps.store, input, input.visual.key, ask) : await ask();
  if (answer.repairError !== undefined) {
    log.warn('a repair call failed; the last answer stands', { jobId: input.jobId, error: String(answer.repairError) });
  }
  return answer;
}

/**
 * What a live call reads: with the Files API, a scan uploaded once for the job and named by id (a batch entry keeps
 * the scan inline, docs/gateway.md#files-api); otherwise as the batch entry reads it.
 */
async function liveDocumentFor(deps: ModelStepDeps, input: ModelStepInput, maxCharacters: number | undefined): Promise<ModelDocument> {
  const visual = input.visual;
  if (!visual || !deps.files) return documentFor(deps.store, input, maxCharacters);
  const scan = { key: visual.key, mediaType: visual.mediaType, pages: visual.pages, read: () => deps.store.getBytes(visual.key) };
  return { documentText: '', documentMedia: await scanAsProviderFile({ store: deps.store, files: deps.files }, input, scan) };
}

/** The text of the job, or the scan's bytes as base64 when it has none (an image, or a PDF without a text layer). */
async function documentFor(
  store: ObjectStore,
  input: ModelStepInput,
  maxCharacters: number | undefined,
): Promise<ModelDocument> {
  if (input.visual) {
    const bytes = await store.getBytes(input.visual.key);
    return { documentText: '', documentMedia: { mediaType: input.visual.mediaType, base64: bytes.toString('base64'), pages: input.visual.pages } };
  }
  const text = (await store.getBytes(input.textKey)).toString('utf8');
  return { documentText: maxCharacters === undefined ? text : text.slice(0, maxCharacters) };
}
