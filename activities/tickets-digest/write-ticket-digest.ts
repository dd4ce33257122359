import { Context } from '@temporalio/activity';
import { ModelUnavailableError } from '../../common/errors';
import type { TicketBatchSummary } from '../../common/job-types/tickets-digest/digest';
import { digestFactsText, mergeBatchSummaries, type TicketFacts } from '../../common/job-types/tickets-digest/digest-merge';
import { validateDigestNarrative, validateTicketsDigest } from '../../common/job-types/tickets-digest/digest-validation';
import type { ModelStepDeps } from '../call-model-on-text';
import { withHeartbeats } from '../heartbeat';
import { usageOfCall } from '../usage';
import type { WriteTicketDigestInput, WriteTicketDigestResult } from './contracts';
import { digestObjectKeys } from './object-keys';
import { NARRATIVE_INSTRUCTION, NARRATIVE_MAX_TOKENS, NARRATIVE_SYSTEM, NARRATIVE_TOOL } from './prompts';

/**
 * The reduce step: joins the batches' answers in code (counts are sums, not the model's guesses), asks the model
 * for a short narrative over the merged figures only (a prompt of bounded size), and checks the whole digest.
 */
export function createWriteTicketDigest(deps: ModelStepDeps) {
  const readJson = async <T>(key: string): Promise<T> => JSON.parse((await deps.store.getBytes(key)).toString('utf8')) as T;

  return async function writeTicketDigest(input: WriteTicketDigestInput): Promise<WriteTicketDigestResult> {
    const { attempt } = Context.current().info;
    const facts = await readJson<TicketFacts>(input.factsKey);
    const summaries = await Promise.all(input.summaryKeys.map((key) => readJson<TicketBatchSummary>(key)));
    const merged = mergeBatchSummaries(facts, summaries);
    const call = await withHeartbeats((signal) =>
      deps.gateway.callTool({
        jobId: input.jobId,
        tenantId: input.tenantId,
        priority: input.priority,
        model: deps.model,
        system: NARRATIVE_SYSTEM,
        documentText: digestFactsText(merged),
        instruction: NARRATIVE_INSTRUCTION,
        tool: NARRATIVE_TOOL,
        maxTokens: NARRATIVE_MAX_TOKENS,
        signal,
      }),
    );
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
