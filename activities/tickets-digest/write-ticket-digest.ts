import { Context } from '@temporalio/activity';
import { ModelUnavailableError } from '../../common/errors';
import type { TicketBatchSummary } from '../../common/job-types/tickets-digest/digest';
import { digestFactsText, mergeBatchSummaries, type TicketFacts } from '../../common/job-types/tickets-digest/digest-merge';
import { validateDigestNarrative, validateTicketsDigest } from '../../common/job-types/tickets-digest/digest-validation';
import type { BatchToolCall } from '../../gateway/batch/message-batches';
import type { ObjectStore } from '../../lib/object-store';
import { firstCallFromBatch } from '../batch-lane/first-call-from-batch';
import type { ModelStepDeps } from '../call-model-on-text';
import { withHeartbeats } from '../heartbeat';
import { usageOfCall } from '../usage';
import type { WriteTicketDigestInput, WriteTicketDigestResult, WriteTicketDigestStepInput } from './contracts';
import { digestObjectKeys } from './object-keys';
import { NARRATIVE_INSTRUCTION, NARRATIVE_MAX_TOKENS, NARRATIVE_SYSTEM, NARRATIVE_TOOL } from './prompts';

const readJson = async <T>(store: ObjectStore, key: string): Promise<T> => JSON.parse((await store.getBytes(key)).toString('utf8')) as T;

/** The batches' answers joined in code (counts are sums, not the model's guesses). */
async function mergedDigest(store: ObjectStore, input: WriteTicketDigestInput) {
  const facts = await readJson<TicketFacts>(store, input.factsKey);
  const summaries = await Promise.all(input.summaryKeys.map((key) => readJson<TicketBatchSummary>(store, key)));
  return mergeBatchSummaries(facts, summaries);
}

/** The narrative call over the merged figures: what the step sends live, and what its batch entry carries. */
function narrativeCall(deps: Pick<ModelStepDeps, 'model'>, input: WriteTicketDigestInput, merged: ReturnType<typeof mergeBatchSummaries>): BatchToolCall {
  return {
    jobId: input.jobId,
    tenantId: input.tenantId,
    priority: input.priority,
    model: deps.model,
    system: NARRATIVE_SYSTEM,
    documentText: digestFactsText(merged),
    instruction: NARRATIVE_INSTRUCTION,
    tool: NARRATIVE_TOOL,
    maxTokens: NARRATIVE_MAX_TOKENS,
  };
}

/** The digest's narrative call, built from the batches' answers in S3 (enqueueBatchEntry's builder for the reduce). */
export async function ticketDigestNarrativeCall(deps: Pick<ModelStepDeps, 'store' | 'model'>, input: WriteTicketDigestInput): Promise<BatchToolCall> {
  return narrativeCall(deps, input, await mergedDigest(deps.store, input));
}

/**
 * The reduce step: joins the batches' answers in code, asks the model for a short narrative over the merged figures
 * only (a prompt of bounded size) — or takes it from the batch lane on the first attempt (`fromBatch`) — and checks
 * the whole digest.
 */
export function createWriteTicketDigest(deps: ModelStepDeps) {
  return async function writeTicketDigest(input: WriteTicketDigestStepInput): Promise<WriteTicketDigestResult> {
    const { attempt } = Context.current().info;
    const merged = await mergedDigest(deps.store, input);
    const request = narrativeCall(deps, input, merged);
    const fromBatch = await firstCallFromBatch(deps.lane, input, request);
    const call = fromBatch ?? (await withHeartbeats((signal) => deps.gateway.callTool({ ...request, signal })));
    const usage = usageOfCall(call.usage);
    const narrative = validateDigestNarrative(call.toolInput);
    if (!narrative.ok) {
      throw new ModelUnavailableError(`the model's narrative did not match the schema: ${narrative.errors.join('; ')}`, {
        details: { billedUsage: usage },
      });
    }
    const digest = validateTicketsDigest({ ...merged, narrative: narrative.value.narrative });
    // Built by our own merge: a mismatch is a bug here, not the model's, and retrying cannot fix it.
    if (!digest.ok) throw new Error(`the merged digest does not match its schema: ${digest.errors.join('; ')}`);
    const digestKey = digestObjectKeys.digest(input.factsKey, input.jobId);
    await deps.store.put(digestKey, JSON.stringify(digest.value), { contentType: 'application/json' });
    return { digest: digest.value, digestKey, usage, attempt };
  };
}
