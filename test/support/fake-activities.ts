import { Context } from '@temporalio/activity';
import type { JobActivities } from '../../activities';
import type { CallActivities } from '../../activities/call';
import type { DocumentActivities } from '../../activities/document';
import type { RetentionActivities } from '../../activities/retention';
import type { ExtractInvoiceFieldsResult } from '../../activities/invoice/contracts';
import type { ModelStepInput } from '../../activities/step-contracts';
import type { VisualDocument } from '../../common/model-media';
import { validateReviewFields } from '../../activities/validate-review-fields';
import type { Invoice, InvoiceExtraction } from '../../common/invoice';
import { overallConfidence } from '../../common/invoice';
import type { Usage } from '../../common/job';
import type { OrderScoreInput, OrderScoreProposal } from '../../common/job-types/order-score/order-score';
import type { DeliverPushInput, PushScope } from '../../common/push';
import type { DeliverWebhookInput } from '../../common/webhooks';

export const sampleInvoice: Invoice = {
  invoiceNumber: 'INV-1001',
  issuer: 'Acme Supplies Ltd',
  issueDate: '2026-11-02',
  dueDate: '2026-12-02',
  currency: 'EUR',
  totalAmount: 121,
  subtotalAmount: 100,
  taxAmount: 21,
  lineItems: [{ description: 'Widgets', quantity: 10, unitPrice: 10, amount: 100 }],
};

/** A returning customer whose checks all pass. */
export const sampleOrder: OrderScoreInput = {
  order: { id: 'ord-1', totalAmount: 120, currency: 'EUR', itemCount: 2 },
  customer: { id: 'cus-1', accountAgeDays: 400, previousOrders: 12, previousChargebacks: 0 },
  payment: { method: 'card', billingCountry: 'DE', cardCountry: 'DE', cvvMatch: true, avsMatch: true },
  shipping: { country: 'DE', expedited: false },
};

export function extractionOf(invoice: Invoice, confidence: number): InvoiceExtraction {
  const names = Object.keys(invoice) as Array<keyof Invoice>;
  return {
    invoice: { ...invoice },
    confidence: Object.fromEntries(names.map((name) => [name, confidence])) as InvoiceExtraction['confidence'],
  };
}

const callUsage: Usage = { inputTokens: 1000, outputTokens: 200, costUsd: 0.006, calls: 1 };

export function validExtraction(invoice: Invoice, confidence: number): ExtractInvoiceFieldsResult {
  const extraction = extractionOf(invoice, confidence);
  return {
    outcome: 'valid',
    extraction,
    invoice,
    invoiceErrors: [],
    confidence: overallConfidence(extraction),
    usage: callUsage,
    attempt: 1,
  };
}

/** A scripted step: each call takes the next answer, and running out fails loudly rather than repeating. */
export function script<T>(name: string, answers: Array<T | Error>): () => Promise<T> {
  let next = 0;
  return async () => {
    const answer = answers[next++];
    if (answer === undefined) throw new Error(`${name} was called ${next} times but only ${answers.length} answers were scripted`);
    if (answer instanceof Error) throw answer;
    return answer;
  };
}

/**
 * An activity that never finishes on its own: it heartbeats until its cancel arrives (which it learns through the
 * heartbeat's answer), records that it saw it, and stops, as the real ones do through the call's AbortSignal.
 */
async function runUntilCancelled(seen: { cancelled: number }): Promise<never> {
  const context = Context.current();
  const timer = setInterval(() => context.heartbeat(), 200);
  try {
    await context.cancelled;
  } catch (error) {
    seen.cancelled++;
    throw error;
  } finally {
    clearInterval(timer);
  }
  throw new Error('unreachable: `cancelled` only rejects');
}

/** Every activity but the document's and the retention sweep's, which no workflow faked here calls. */
export type FakeActivities = Omit<JobActivities, keyof DocumentActivities | keyof CallActivities | keyof RetentionActivities>;

export interface FakeActivitiesOptions {
  /** order.score: each call takes the next proposal; `'invalid'` answers as a schema-invalid model output. */
  scores?: Array<OrderScoreProposal | 'invalid' | Error>;
  /** These steps run until the job is cancelled. */
  hangIn?: Array<'extractText' | 'scoreOrder'>;
  documentType?: 'invoice' | 'other';
  extractions?: Array<ExtractInvoiceFieldsResult | Error>;
  extractText?: Array<{ textKey: string; visual?: VisualDocument } | Error>;
  classifyDocument?: Error[];
  ledgerFailures?: Error[];
  /** Web Push: the subscriptions each scope has (none by default); deliverPush answers `gone` for the ids in `gone`. */
  push?: { targets?: Partial<Record<PushScope, string[]>>; gone?: string[] };
}

function notAnInvoiceStep(name: string) {
  return async (): Promise<never> => {
    throw new Error(`the invoice workflow called ${name}`);
  };
}

/** Typed against the real activities, with a record of every call the workflow made. */
export function fakeActivities(options: FakeActivitiesOptions = {}) {
  const calls = { extractText: 0, classifyDocument: 0, extractInvoiceFields: 0, postInvoiceToLedger: 0, scoreOrder: 0, cancelled: 0, deleteJobProviderFiles: 0 };
  const hangIn = new Set(options.hangIn ?? []);
  const scoreAnswers = script('scoreOrder', options.scores ?? []);
  const posted: Invoice[] = [];
  const webhooks: DeliverWebhookInput[] = [];
  const pushes: DeliverPushInput[] = [];
  /** What each model step was asked to read, in call order. */
  const modelInputs: Array<{ step: 'classifyDocument' | 'extractInvoiceFields'; input: ModelStepInput }> = [];
  const textAnswers = script('extractText', options.extractText ?? [{ textKey: 'texts/t/abc.txt' }]);
  const extractAnswers = script('extractInvoiceFields', options.extractions ?? [validExtraction(sampleInvoice, 0.97)]);
  const classifyFailures = [...(options.classifyDocument ?? [])];
  const ledgerFailures = [...(options.ledgerFailures ?? [])];
  const attempt = () => Context.current().info.attempt;
  const activities: FakeActivities = {
    async extractText() {
      calls.extractText++;
      if (hangIn.has('extractText')) return runUntilCancelled(calls);
      const { textKey, visual } = await textAnswers();
      return visual ? { textKey, characters: 0, pages: visual.pages, attempt: attempt(), visual } : { textKey, characters: 1200, pages: 1, attempt: attempt() };
    },
    async classifyDocument(input) {
      calls.classifyDocument++;
      modelInputs.push({ step: 'classifyDocument', input });
      const failure = classifyFailures.shift();
      if (failure) throw failure;
      return {
        classification: { documentType: options.documentType ?? 'invoice', confidence: 0.98 },
        usage: callUsage,
        attempt: attempt(),
      };
    },
    async extractInvoiceFields(input) {
      calls.extractInvoiceFields++;
      modelInputs.push({ step: 'extractInvoiceFields', input });
      return { ...(await extractAnswers()), attempt: attempt() };
    },
    async postInvoiceToLedger({ invoice }) {
      calls.postInvoiceToLedger++;
      const failure = ledgerFailures.shift();
      if (failure) throw failure;
      posted.push(invoice);
      return { entryId: `led_${posted.length}`, replayed: false, attempt: attempt() };
    },
    async scoreOrder() {
      calls.scoreOrder++;
      if (hangIn.has('scoreOrder')) return runUntilCancelled(calls);
      const answer = await scoreAnswers();
      if (answer === 'invalid') return { outcome: 'schema_invalid', errors: ['/score must be <= 1'], usage: callUsage, attempt: attempt() };
      return { outcome: 'valid', proposal: answer, usage: callUsage, attempt: attempt() };
    },
    async deliverWebhook(input) {
      webhooks.push(input);
      return { status: 204, attempt: attempt() };
    },
    async findPushTargets({ scope }) {
      return (options.push?.targets?.[scope] ?? []).map((id) => ({ id, scope }));
    },
    async deliverPush(input) {
      pushes.push(input);
      return options.push?.gone?.includes(input.target.id) ? { outcome: 'gone' } : { outcome: 'delivered', status: 201 };
    },
    async deleteJobProviderFiles() {
      calls.deleteJobProviderFiles++;
      return { deleted: 1 };
    },
    // The real check: it is pure, and the workflow's handling of its answer is what the tests exercise.
    validateReviewFields,
    // The invoice workflow never runs these; a call would be a bug the test should see.
    prepareTicketBatches: notAnInvoiceStep('prepareTicketBatches'),
    summariseTicketBatch: notAnInvoiceStep('summariseTicketBatch'),
    writeTicketDigest: notAnInvoiceStep('writeTicketDigest'),
    // No job here allows the batch lane (no `batchLane` in its input).
    enqueueBatchEntry: notAnInvoiceStep('enqueueBatchEntry'),
    enqueueScoreOrderBatch: notAnInvoiceStep('enqueueScoreOrderBatch'),
    scoreOrderFromBatch: notAnInvoiceStep('scoreOrderFromBatch'),
    writeBatchSegment: notAnInvoiceStep('writeBatchSegment'),
    submitMessageBatch: notAnInvoiceStep('submitMessageBatch'),
    messageBatchStatus: notAnInvoiceStep('messageBatchStatus'),
    storeMessageBatchResults: notAnInvoiceStep('storeMessageBatchResults'),
    answerBatchEntries: notAnInvoiceStep('answerBatchEntries'),
    cancelMessageBatch: notAnInvoiceStep('cancelMessageBatch'),
    reconcileMessageBatches: notAnInvoiceStep('reconcileMessageBatches'),
  };
  return { activities, calls, posted, webhooks, pushes, modelInputs };
}
