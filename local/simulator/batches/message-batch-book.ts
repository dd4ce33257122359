import type { CountTokensRequest } from '../messages-request';
import { documentTextOf } from '../request-text';
import type { SimulatorState } from '../state';
import { answerBatchEntry, type BatchEntryResult } from './batch-entry-answer';

/** The provider keeps a batch's results for 29 days and expires unfinished entries after 24 h. */
const EXPIRES_AFTER_MS = 24 * 60 * 60 * 1000;

export interface BatchRequest {
  custom_id: string;
  params: unknown;
}

interface StoredBatch {
  id: string;
  createdAt: number;
  endsAt: number;
  cancelInitiatedAt: number | null;
  endedAt: number | null;
  requests: BatchRequest[];
  results: Array<{ custom_id: string; result: BatchEntryResult }> | null;
  resultsReads: number;
}

export interface MessageBatchView {
  id: string;
  type: 'message_batch';
  processing_status: 'in_progress' | 'canceling' | 'ended';
  request_counts: { processing: number; succeeded: number; errored: number; canceled: number; expired: number };
  ended_at: string | null;
  created_at: string;
  expires_at: string;
  archived_at: null;
  cancel_initiated_at: string | null;
  results_url: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The Message Batches the simulator holds, newest last. A batch ends SIM_BATCH_PROCESSING_MS after it was
 * created (all entries at once, answered when someone first looks after that), or at the first look after a cancel,
 * its entries then `canceled`. Kept in memory: a restarted simulator has forgotten its batches.
 */
/** What GET /_sim/batch-billing answers (local/simulator/README.md). */
export interface BatchBilling {
  batches: number;
  billedEntries: number;
  billedOnce: number;
  billedTwice: number;
  inProgress: number;
  unread: number;
  unreadIds: string[];
}

export class MessageBatchBook {
  private readonly batches: StoredBatch[] = [];

  constructor(private readonly state: SimulatorState) {}

  create(requests: BatchRequest[]): StoredBatch {
    const now = this.state.clock.now();
    const batch: StoredBatch = {
      id: this.state.newId('msgbatch'),
      createdAt: now,
      endsAt: now + this.state.settings.batchProcessingMs,
      cancelInitiatedAt: null,
      endedAt: null,
      requests,
      results: null,
      resultsReads: 0,
    };
    this.batches.push(batch);
    return batch;
  }

  find(id: string): StoredBatch | undefined {
    const batch = this.batches.find((candidate) => candidate.id === id);
    if (batch) this.advance(batch);
    return batch;
  }

  /** Newest first, like the provider's list. */
  list(): StoredBatch[] {
    for (const batch of this.batches) this.advance(batch);
    return [...this.batches].reverse();
  }

  cancel(batch: StoredBatch): void {
    if (batch.endedAt === null && batch.cancelInitiatedAt === null) batch.cancelInitiatedAt = this.state.clock.now();
    this.advance(batch);
  }

  clear(): void {
    this.batches.length = 0;
  }

  /**
   * The billing log's totals: entries billed, custom ids billed exactly once and more than once (a request sent in
   * two batches), batches still in progress and batches whose results nobody read. Every batch due to end is ended
   * first, as the provider bills it whether or not anyone looks. With `textIncludes`, only the requests whose
   * document holds it count, and only the batches that carry one (a test's own, beside other tests' batches).
   */
  billing(filter: { textIncludes?: string } = {}): BatchBilling {
    const { textIncludes } = filter;
    const counted = (request: BatchRequest) =>
      textIncludes === undefined || documentTextOf(request.params as CountTokensRequest).includes(textIncludes);
    const batches = this.list().filter((batch) => batch.requests.some(counted));
    const billedEntries = new Map<string, number>();
    for (const batch of batches) {
      const requests = new Map(batch.requests.map((request) => [request.custom_id, request]));
      for (const { custom_id, result } of batch.results ?? []) {
        const request = requests.get(custom_id);
        if (result.type === 'succeeded' && request && counted(request)) billedEntries.set(custom_id, (billedEntries.get(custom_id) ?? 0) + 1);
      }
    }
    let billedOnce = 0;
    let billedTwice = 0;
    let billed = 0;
    for (const times of billedEntries.values()) {
      billed += times;
      if (times === 1) billedOnce++;
      else billedTwice++;
    }
    const unread = batches.filter((batch) => batch.resultsReads === 0);
    return {
      batches: batches.length,
      billedEntries: billed,
      billedOnce,
      billedTwice,
      inProgress: batches.filter((batch) => batch.endedAt === null).length,
      unread: unread.length,
      unreadIds: unread.map((batch) => batch.id),
    };
  }

  /** Counts a read of the batch's results file: a batch never read is one the product left behind. */
  markRead(batch: StoredBatch): void {
    batch.resultsReads += 1;
  }

  view(batch: StoredBatch, baseUrl: string): MessageBatchView {
    const counts = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 };
    if (batch.results) for (const { result } of batch.results) counts[result.type] += 1;
    else counts.processing = batch.requests.length;
    const ended = batch.endedAt !== null;
    return {
      id: batch.id,
      type: 'message_batch',
      processing_status: ended ? 'ended' : batch.cancelInitiatedAt !== null ? 'canceling' : 'in_progress',
      request_counts: counts,
      ended_at: ended ? iso(batch.endedAt as number) : null,
      created_at: iso(batch.createdAt),
      expires_at: iso(batch.createdAt + EXPIRES_AFTER_MS),
      archived_at: null,
      cancel_initiated_at: batch.cancelInitiatedAt === null ? null : iso(batch.cancelInitiatedAt),
      results_url: ended ? `${baseUrl}/v1/messages/batches/${batch.id}/results` : null,
    };
  }

  /** The results file: one JSON object per line, in no promised order (the provider's neither). */
  resultsJsonl(batch: StoredBatch): string {
    return (batch.results ?? []).map((line) => JSON.stringify(line)).join('\n') + '\n';
  }

  private advance(batch: StoredBatch): void {
    if (batch.endedAt !== null) return;
    const now = this.state.clock.now();
    if (batch.cancelInitiatedAt !== null) {
      batch.results = batch.requests.map(({ custom_id }) => ({ custom_id, result: { type: 'canceled' } }));
    } else if (now >= batch.endsAt) {
      batch.results = batch.requests.map(({ custom_id, params }) => {
        return { custom_id, result: answerBatchEntry(this.state, params, batch.id) };
      });
    } else {
      return;
    }
    batch.endedAt = now;
  }
}
