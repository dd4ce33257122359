import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Priority } from '../../common/task-queues';
import { generateSamples } from '../../local/samples/generate';
import { longCallScript } from '../../local/samples/long-call';
import { speakCall } from '../../local/samples/spoken-call';
import type { ExpectedOutcome } from '../../local/samples/sample-document';

/** One kind of job the chaos benchmark submits: a row of JOB_MIX. A new job type is a new row. */
export interface JobKind {
  name: string;
  /** The form's `type`. */
  type: string;
  priority: Priority;
  /** Share of the jobs submitted: this row's weight over the sum of all weights. */
  weight: number;
  /** Where the job should end, once the benchmark's reviewer has approved what waits for review. */
  expected: 'posted' | 'rejected' | 'completed';
  /** A multipart form with its file, or a JSON body; `index` makes the input unique where the type allows. */
  form(index: number, runId: string): Promise<JobForm | JobJson>;
  /** The approval the benchmark sends when the job waits for a person (`undefined`: it never should). */
  approval?(index: number): unknown;
}

export interface JobForm {
  fields: Record<string, string>;
  file: { bytes: Uint8Array; fileName: string };
}

/** `POST /jobs` with a JSON body (`SubmitJobRequest`): a type whose input is JSON. */
export interface JobJson {
  json: { type: string; priority: Priority; input: unknown };
}

let samples: Promise<Map<string, { bytes: Uint8Array; expectedOutcome: ExpectedOutcome }>> | undefined;

/** The project's demo invoices (local/samples), generated once per run. */
function sampleDocuments() {
  samples ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'slowlane-bench-chaos-samples-'));
    try {
      const files = await generateSamples(dir);
      const loaded = await Promise.all(
        files.map(
          async (file) =>
            [
              file.fileName,
              { bytes: new Uint8Array(await readFile(file.path)), expectedOutcome: file.expectedOutcome },
            ] as const,
        ),
      );
      return new Map(loaded);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return samples;
}

/** Cycles through the demo samples that end one way, so every sample is used. */
function invoiceSample(outcome: ExpectedOutcome, priority: Priority) {
  return async (index: number): Promise<JobForm> => {
    const matching = [...(await sampleDocuments()).entries()].filter(
      ([, sample]) => sample.expectedOutcome === outcome,
    );
    const [fileName, sample] = matching[index % matching.length] as (typeof matching)[number];
    return { fields: { type: 'invoice', priority }, file: { bytes: sample.bytes, fileName } };
  };
}

let call: Promise<Uint8Array> | undefined;

/**
 * A half-minute two-voice call carrying its script, spoken once per run: one chunk, so each step runs once per job
 * and a step completed twice is a step run again. The upload is shared by content like the sample invoices'.
 */
function spokenCall(priority: Priority) {
  return async (index: number): Promise<JobForm> => {
    call ??= (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'slowlane-bench-chaos-call-'));
      try {
        const spoken = await speakCall(longCallScript(0.5), join(dir, 'call.wav'), { carryScript: true });
        return new Uint8Array(await readFile(spoken.path));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    })();
    return { fields: { type: 'call.transcribe', priority }, file: { bytes: await call, fileName: `chaos-call-${index}.wav` } };
  };
}

/** A plain-text invoice the reader accepts with full confidence, unique per job (its own S3 object and text). */
function uniqueTextInvoice(priority: Priority) {
  return async (index: number, runId: string): Promise<JobForm> => {
    const text = [
      'INVOICE',
      'Seller: Chaos Monkey Supplies GmbH',
      `Invoice number: CH-${runId}-${index}`,
      'Invoice date: 2026-11-20',
      'Subtotal: 100.00 EUR',
      'VAT 19%: 19.00 EUR',
      'Total due: 119.00 EUR',
    ].join('\n');
    return {
      fields: { type: 'invoice', priority },
      file: { bytes: Buffer.from(text), fileName: `chaos-${index}.txt` },
    };
  };
}

/** What a reviewer approves for an ambiguous invoice: complete fields, numbered after the job. */
function invoiceApproval(index: number) {
  return {
    decision: 'approve',
    fields: {
      invoiceNumber: `CHAOS-REVIEWED-${index}`,
      issuer: 'Reviewed Supplier BV',
      issueDate: '2026-11-30',
      dueDate: null,
      currency: 'EUR',
      totalAmount: 119,
      subtotalAmount: 100,
      taxAmount: 19,
      lineItems: [],
    },
  };
}

/**
 * An order for `order.score`, unique per job: a returning customer the simulator scores low (approve), or a new
 * account shipping abroad that lands in the grey zone and waits for a person (local/simulator/reader/score-order.ts).
 */
function order(kind: 'safe' | 'grey', priority: Priority) {
  return async (index: number, runId: string): Promise<JobJson> => {
    const id = `chaos-${runId}-${index}`;
    const grey = kind === 'grey';
    return {
      json: {
        type: 'order.score',
        priority,
        input: {
          order: { id, totalAmount: 80 + (index % 50), currency: 'EUR', itemCount: 1 },
          customer: { id: `cus-${id}`, accountAgeDays: grey ? 7 : 900, previousOrders: grey ? 0 : 20, previousChargebacks: 0 },
          payment: { method: 'card', billingCountry: 'DE', cardCountry: 'DE', cvvMatch: true, avsMatch: true },
          shipping: { country: grey ? 'FR' : 'DE', expedited: false },
        },
      },
    };
  };
}

/**
 * The jobs of a chaos run, of every type with no schedule or fan-out of its own, in both priorities: clean invoices
 * that post by themselves, ambiguous ones that wait for a person (the benchmark approves them through the API), a
 * letter that is rejected, orders scored at once or after review, and short calls transcribed and summarised. Another job type slots in as
 * rows of its own.
 */
export const JOB_MIX: readonly JobKind[] = [
  {
    name: 'invoice clean text, interactive',
    type: 'invoice',
    priority: 'interactive',
    weight: 3,
    expected: 'posted',
    form: uniqueTextInvoice('interactive'),
  },
  {
    name: 'invoice clean PDF, interactive',
    type: 'invoice',
    priority: 'interactive',
    weight: 2,
    expected: 'posted',
    form: invoiceSample('posted', 'interactive'),
  },
  {
    name: 'invoice clean PDF, bulk',
    type: 'invoice',
    priority: 'bulk',
    weight: 4,
    expected: 'posted',
    form: invoiceSample('posted', 'bulk'),
  },
  {
    name: 'invoice ambiguous PDF, interactive (approved in review)',
    type: 'invoice',
    priority: 'interactive',
    weight: 1,
    expected: 'posted',
    form: invoiceSample('awaiting_review', 'interactive'),
    approval: invoiceApproval,
  },
  {
    name: 'invoice ambiguous PDF, bulk (approved in review)',
    type: 'invoice',
    priority: 'bulk',
    weight: 1,
    expected: 'posted',
    form: invoiceSample('awaiting_review', 'bulk'),
    approval: invoiceApproval,
  },
  {
    name: 'letter, not an invoice, bulk',
    type: 'invoice',
    priority: 'bulk',
    weight: 1,
    expected: 'rejected',
    form: invoiceSample('rejected', 'bulk'),
  },
  {
    name: 'order.score clear, interactive',
    type: 'order.score',
    priority: 'interactive',
    weight: 2,
    expected: 'completed',
    form: order('safe', 'interactive'),
  },
  {
    name: 'order.score grey zone, bulk (approved in review)',
    type: 'order.score',
    priority: 'bulk',
    weight: 1,
    expected: 'completed',
    form: order('grey', 'bulk'),
    approval: () => ({ decision: 'approve' }),
  },
  {
    name: 'call.transcribe two voices, bulk',
    type: 'call.transcribe',
    priority: 'bulk',
    weight: 1,
    expected: 'completed',
    form: spokenCall('bulk'),
  },
];

/** `count` kinds in the table's proportions, interleaved so every stretch of submissions has the whole mix. */
export function jobPlan(count: number, mix: readonly JobKind[] = JOB_MIX): JobKind[] {
  const total = mix.reduce((sum, kind) => sum + kind.weight, 0);
  const plan: JobKind[] = [];
  const credit = mix.map(() => 0);
  for (let i = 0; i < count; i++) {
    // Smooth weighted round robin: each kind earns its weight per pick; the richest is picked and pays the total.
    mix.forEach((kind, k) => (credit[k] = (credit[k] as number) + kind.weight));
    const pick = credit.indexOf(Math.max(...credit));
    credit[pick] = (credit[pick] as number) - total;
    plan.push(mix[pick] as JobKind);
  }
  return plan;
}
