import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { JsonJobInput } from '../../common/job';
import type { InvoiceJobInput } from '../../common/job-types/invoice/invoice-job';
import type { OrderScoreInput } from '../../common/job-types/order-score/order-score';
import type { DocumentJobInput, DocumentJobSettings } from '../../common/job-types/document/document-job';
import type { TicketsDigestJobInput } from '../../common/job-types/tickets-digest/tickets-digest-job';
import { JobStatusKey, JobTypeKey, NeedsReviewKey, PriorityKey, TenantIdKey } from '../../common/search-attributes';
import { type Priority, taskQueueFor } from '../../common/task-queues';
import { loadConfig } from '../../lib/config';
import { createObjectStore, objectKeys } from '../../lib/object-store';
import { type ManagedProcess, Supervisor } from '../../local/stack/supervisor';
import { workerIsPolling } from '../../local/stack/temporal-setup';
import { loadTemporalDevConfig } from '../../local/stack/temporal-dev-config';
import type { CallJobInput } from '../../common/job-types/call/call-job';
import type { callTranscribeWorkflow, documentWorkflow, invoiceWorkflow, orderScoreWorkflow, ticketsDigestWorkflow } from '../../workflows';
import { type RestartableTemporal, startRestartableTemporal } from './restartable-temporal';
import { testEnv } from './test-env';
import { testDataConverter } from './test-codec';
import type { BatchBilling } from '../../local/simulator/batches/message-batch-book';

const REPO_ROOT = join(__dirname, '..', '..');

/** The job types whose input is an uploaded file, as the harness starts them. */
type FileJobType = 'invoice' | 'document' | 'tickets.digest' | 'call.transcribe';

/**
 * Reliability tests need processes they may kill: their own Temporal server of the stack's kind (the dev server on
 * a SQLite file, or the cluster on its own PostgreSQL databases, so it can be restarted) and their own worker
 * processes, next to the test stack's S3, simulator and ledger.
 */
export class FaultHarness {
  readonly supervisor: Supervisor;
  readonly taskQueuePrefix = `fault${randomUUID().slice(0, 8)}`;
  private temporal: RestartableTemporal | undefined;
  private client: Client | undefined;
  private workerCount = 0;

  private constructor(
    readonly dataDir: string,
    private readonly productEnv: Record<string, string>,
  ) {
    this.supervisor = new Supervisor(join(dataDir, 'logs'));
  }

  static async create(): Promise<FaultHarness> {
    const { productEnv, dataDir: stackDataDir } = testEnv();
    assert.ok(productEnv && stackDataDir, 'reliability tests need the stack that `npm test` starts');
    // Inside the test stack's folder: removed with it after a pass, kept with its logs after a failure.
    const dataDir = await mkdtemp(join(stackDataDir, 'fault-'));
    await mkdir(join(dataDir, 'temporal'), { recursive: true });
    const harness = new FaultHarness(dataDir, productEnv);
    try {
      harness.temporal = await startRestartableTemporal(harness.supervisor, dataDir);
    } catch (error) {
      await harness.supervisor.stopAll();
      throw error;
    }
    return harness;
  }

  get temporalAddress(): string {
    assert.ok(this.temporal);
    return this.temporal.address;
  }

  get namespace(): string {
    return loadTemporalDevConfig().namespace;
  }

  /** SIGKILL: the server dies without a chance to flush anything but what its database already committed. */
  async killTemporal(): Promise<void> {
    assert.ok(this.temporal);
    await this.temporal.kill();
  }

  /** The server again on the same database (the same SQLite file, or the same PostgreSQL databases). */
  async restartTemporal(): Promise<void> {
    assert.ok(this.temporal);
    await this.temporal.restart();
  }

  async startWorker(extraEnv: Record<string, string> = {}): Promise<ManagedProcess> {
    this.workerCount += 1;
    return this.supervisor.start({
      name: `worker-${this.workerCount}`,
      command: process.execPath,
      args: ['--import', 'tsx', join(REPO_ROOT, 'workers', 'main.ts')],
      env: {
        ...this.productEnv,
        TEMPORAL_ADDRESS: this.temporalAddress,
        TASK_QUEUE_PREFIX: this.taskQueuePrefix,
        WORKER_PRIORITIES: 'interactive',
        // A free port each: two harness workers (or anything else on the machine) never fight over the default.
        WORKER_METRICS_PORT: '0',
        ...extraEnv,
      },
      ready: ({ pid }) => workerIsPolling(this.temporalAddress, this.namespace, pid, this.taskQueuePrefix),
      readyTimeoutMs: 120_000,
    });
  }

  async temporalClient(): Promise<Client> {
    this.client ??= new Client({
      connection: await Connection.connect({ address: this.temporalAddress }),
      namespace: this.namespace,
      dataConverter: testDataConverter(),
    });
    return this.client;
  }

  /** Puts a document in the test stack's S3 and starts an invoice job for it directly on our server. */
  async startJob(document: string | Uint8Array, fileName = 'invoice.txt', extra: Partial<InvoiceJobInput> = {}) {
    const { jobId, base } = await this.jobStart('invoice', document, fileName);
    const input: InvoiceJobInput = { ...base, ...extra };
    const client = await this.temporalClient();
    return client.workflow.start<typeof invoiceWorkflow>('invoiceWorkflow', this.startOptions(jobId, 'invoice', input));
  }

  /** Puts a PDF or a text (pages split at form feeds) in the test stack's S3 and starts a document job for it on our server. */
  async startDocumentJob(
    document: string | Uint8Array,
    settings: Partial<DocumentJobSettings>,
    fileName = 'document.txt',
    extra: Partial<DocumentJobInput> = {},
  ) {
    const { jobId, base } = await this.jobStart('document', document, fileName);
    const input: DocumentJobInput = { ...base, settings, ...extra };
    const client = await this.temporalClient();
    return client.workflow.start<typeof documentWorkflow>('documentWorkflow', this.startOptions(jobId, 'document', input));
  }

  /** Puts a JSONL day of tickets in the test stack's S3 and starts a tickets.digest job for it on our server. */
  async startDigestJob(tickets: string | Uint8Array, extra: Partial<TicketsDigestJobInput> = {}) {
    const { jobId, base } = await this.jobStart('tickets.digest', tickets, 'tickets.jsonl');
    const input: TicketsDigestJobInput = { ...base, ...extra };
    const client = await this.temporalClient();
    return client.workflow.start<typeof ticketsDigestWorkflow>('ticketsDigestWorkflow', this.startOptions(jobId, 'tickets.digest', input));
  }

  /** Puts a recording (WAV) in the test stack's S3 and starts a call.transcribe job for it on our server. */
  async startCallJob(recording: Uint8Array, fileName = 'call.wav') {
    const { jobId, base } = await this.jobStart('call.transcribe', recording, fileName);
    const input: CallJobInput = base;
    const client = await this.temporalClient();
    return client.workflow.start<typeof callTranscribeWorkflow>('callTranscribeWorkflow', this.startOptions(jobId, 'call.transcribe', input));
  }

  /** What every file job's input holds: the document stored in S3 as the API stores it, the job settings, the time. */
  private async jobStart(type: FileJobType, document: string | Uint8Array, fileName: string) {
    const bytes = Buffer.from(document);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const config = loadConfig(this.productEnv);
    const store = createObjectStore(config);
    const key = objectKeys.input('demo', sha256);
    const contentType = fileName.endsWith('.pdf') ? 'application/pdf' : fileName.endsWith('.wav') ? 'audio/wav' : 'text/plain';
    await store.put(key, bytes, { contentType });
    const jobId = `${type}:demo:${this.taskQueuePrefix}-${randomUUID()}`;
    const base = {
      jobId,
      tenantId: 'demo',
      priority: 'interactive' as const,
      document: { bucket: store.bucket, key, sha256, contentType, sizeBytes: bytes.length, fileName } as const,
      confidenceThreshold: config.jobs.confidenceThreshold,
      reviewTimeoutMs: config.jobs.reviewTimeoutMs,
      maxExtractionTries: config.jobs.maxExtractionTries,
      deadLetterTimeoutMs: config.jobs.deadLetterTimeoutMs,
      submittedAt: new Date().toISOString(),
    };
    return { jobId, base };
  }

  /** On the queue of the job's priority (interactive unless the test's `extra` says bulk). */
  private startOptions<Input extends { priority: Priority }>(jobId: string, type: FileJobType, input: Input) {
    return {
      workflowId: jobId,
      taskQueue: taskQueueFor(input.priority, this.taskQueuePrefix),
      args: [input] as [Input],
      typedSearchAttributes: [
        { key: TenantIdKey, value: 'demo' },
        { key: JobTypeKey, value: type },
        { key: JobStatusKey, value: 'queued' },
        { key: PriorityKey, value: input.priority },
        { key: NeedsReviewKey, value: false },
      ],
    };
  }

  /** Starts an order.score job directly on our server, on its priority's queue; `extra` adds to its input. */
  async startOrderJob(order: OrderScoreInput, extra: Partial<JsonJobInput<OrderScoreInput>> = {}) {
    const config = loadConfig(this.productEnv);
    const priority = extra.priority ?? 'bulk';
    const jobId = `order.score:demo:${this.taskQueuePrefix}-${randomUUID()}`;
    const input: JsonJobInput<OrderScoreInput> = {
      jobId,
      tenantId: 'demo',
      priority,
      input: order,
      reviewTimeoutMs: config.jobs.reviewTimeoutMs,
      deadLetterTimeoutMs: config.jobs.deadLetterTimeoutMs,
      submittedAt: new Date().toISOString(),
      ...extra,
    };
    const client = await this.temporalClient();
    return client.workflow.start<typeof orderScoreWorkflow>('orderScoreWorkflow', {
      workflowId: jobId,
      taskQueue: taskQueueFor(priority, this.taskQueuePrefix),
      args: [input],
      typedSearchAttributes: [
        { key: TenantIdKey, value: 'demo' },
        { key: JobTypeKey, value: 'order.score' },
        { key: JobStatusKey, value: 'queued' },
        { key: PriorityKey, value: priority },
        { key: NeedsReviewKey, value: false },
      ],
    });
  }

  /** Changes the simulator's runtime settings; returns the values they had, to put back after the suite. */
  async simulatorConfig(patch: Record<string, number>): Promise<Record<string, number>> {
    const url = `${testEnv().simulatorUrl}/_sim/config`;
    const before = (await (await fetch(url)).json()) as Record<string, number>;
    const response = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(patch) });
    assert.equal(response.status, 200, await response.text());
    return Object.fromEntries(Object.keys(patch).map((key) => [key, before[key] as number]));
  }

  /** The simulator's calls whose text holds the marker; a batch call's `requestId` is its batch's id. */
  async simulatorCalls(marker: string, tool?: string): Promise<Array<{ tool: string; status: number; lane?: 'batch'; requestId?: string }>> {
    const url = new URL(`${testEnv().simulatorUrl}/_sim/calls`);
    url.searchParams.set('textIncludes', marker);
    if (tool) url.searchParams.set('tool', tool);
    const response = await fetch(url);
    return ((await response.json()) as { calls: Array<{ tool: string; status: number; lane?: 'batch'; requestId?: string }> }).calls;
  }

  /** The simulator's Message Batches invoice for the requests whose text holds the marker, and the batches carrying them. */
  async simulatorBatchBilling(marker: string): Promise<SimulatorBatchBilling> {
    const url = new URL(`${testEnv().simulatorUrl}/_sim/batch-billing`);
    url.searchParams.set('textIncludes', marker);
    return (await (await fetch(url)).json()) as SimulatorBatchBilling;
  }

  async addSimulatorFault(rule: Record<string, unknown>): Promise<string> {
    const response = await fetch(`${testEnv().simulatorUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(rule),
    });
    assert.equal(response.status, 201, await response.clone().text());
    return ((await response.json()) as { id: string }).id;
  }

  async removeSimulatorFault(id: string): Promise<void> {
    await fetch(`${testEnv().simulatorUrl}/_sim/faults/${id}`, { method: 'DELETE' });
  }

  async close(): Promise<void> {
    await this.client?.connection.close();
    await this.supervisor.stopAll();
  }
}

/** GET /_sim/batch-billing (local/simulator/README.md). */
export type SimulatorBatchBilling = BatchBilling;

/** A plain-text invoice the simulator's reader accepts with full confidence, made unique by its marker. */
export function cleanTextInvoice(marker: string): string {
  return [
    'INVOICE',
    'Seller: Fault Tolerant Supplies GmbH',
    `Invoice number: FT-${marker}`,
    'Invoice date: 2026-11-20',
    'Due date: 2026-12-20',
    '',
    'Description            Qty   Unit price   Amount',
    'Retry widgets           2       50.00     100.00',
    '',
    'Subtotal: 100.00 EUR',
    'VAT 19%: 19.00 EUR',
    'Total due: 119.00 EUR',
    `Reference: ${marker}`,
  ].join('\n');
}
