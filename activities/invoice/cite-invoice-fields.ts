import { Context, log } from '@temporalio/activity';
import type { InvoiceExtraction, InvoiceFieldName } from '../../common/invoice';
import type { FieldCitations } from '../../common/job-types/invoice/field-citations';
import type { FromBatch } from '../../common/batch-lane';
import type { Usage } from '../../common/job';
import type { ModelGateway } from '../../gateway/model-call';
import type { ObjectStore } from '../../lib/object-store';
import type { ModelStepInput } from '../step-contracts';
import { fieldCitationsOf } from './field-citations-of';
import { withHeartbeats } from '../heartbeat';
import { CITE_INSTRUCTION, CITE_MAX_TOKENS, CITE_SYSTEM } from './prompts';
import { usageOfCall } from '../usage';

export interface CiteInvoiceFieldsDeps {
  store: ObjectStore;
  gateway: ModelGateway;
  model: string;
}

/** A scan: the provider cites text, not images, so there is nothing to ask (the reviewer page says so). */
export const NO_TEXT_LAYER: FieldCitations = { textLayer: false, fields: {} };

/**
 * Where each extracted value is printed, asked of the provider as a second call on the extracted text with
 * citations enabled. A second call, not the extraction's own: citations come on text answers only, never on a tool's
 * input nor beside `output_config` (the provider refuses that pair). Only after the extraction passed its schema,
 * so a repair never pays for citations it throws away. A failed citations call does not fail the step: the paid
 * extraction stands and every field shows as uncited; a cancelled activity still ends at once.
 */
export async function citeInvoiceFields(
  deps: CiteInvoiceFieldsDeps,
  input: ModelStepInput & FromBatch,
  extraction: InvoiceExtraction,
): Promise<{ citations: FieldCitations; usage?: Usage }> {
  if (input.visual) return { citations: NO_TEXT_LAYER };
  // A bulk job chose the batch lane's half price; a live citations call would cost about what its extraction did.
  if (input.fromBatch) return { citations: { textLayer: true, fields: {}, unavailable: 'not asked for a job on the batch lane' } };
  const cite = deps.gateway.citeDocument?.bind(deps.gateway);
  const asked = askedFields(extraction);
  if (!cite || asked.length === 0) return { citations: { textLayer: true, fields: {} } };
  const documentText = (await deps.store.getBytes(input.textKey)).toString('utf8');
  if (documentText.trim() === '') return { citations: { textLayer: true, fields: {}, unavailable: 'the extracted text is empty' } };
  try {
    const answer = await withHeartbeats((signal) =>
      cite({
        jobId: input.jobId,
        tenantId: input.tenantId,
        priority: input.priority,
        model: deps.model,
        system: CITE_SYSTEM,
        documentText,
        instruction: citationQuestion(asked),
        maxTokens: CITE_MAX_TOKENS,
        signal,
      }),
    );
    const fields = fieldCitationsOf(answer.blocks, asked.map(([name]) => name));
    const cut = answer.stopReason === 'max_tokens' ? { unavailable: 'the citations answer was cut at max_tokens' } : {};
    return { citations: { textLayer: true, fields, ...cut }, usage: usageOfCall(answer.usage) };
  } catch (error) {
    if (Context.current().cancellationSignal.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    log.warn('the citations call failed; the fields stand uncited', { jobId: input.jobId, error: reason });
    return { citations: { textLayer: true, fields: {}, unavailable: `the citations call failed: ${reason}` } };
  }
}

/** The question: the instruction, then one `- name: value` line per field with a value. */
export function citationQuestion(asked: ReadonlyArray<[InvoiceFieldName, string]>): string {
  return `${CITE_INSTRUCTION}\n\n${asked.map(([name, value]) => `- ${name}: ${value}`).join('\n')}`;
}

/** The fields with a value to point at, as the model is shown them; line items by their first description. */
export function askedFields(extraction: InvoiceExtraction): Array<[InvoiceFieldName, string]> {
  return (Object.entries(extraction.invoice) as Array<[InvoiceFieldName, unknown]>).flatMap(([name, value]): Array<[InvoiceFieldName, string]> => {
    if (Array.isArray(value)) {
      const first: unknown = value[0];
      const description = typeof first === 'object' && first !== null ? (first as { description?: unknown }).description : undefined;
      return typeof description === 'string' && description !== '' ? [[name, description]] : [];
    }
    return value === null || value === '' ? [] : [[name, String(value)]];
  });
}
