import type { FaultKind } from './faults';

export interface CallRecord {
  at: string;
  tool: string | null;
  model: string | null;
  status: number;
  stopReason: string | null;
  fault: FaultKind | null;
  /** Fresh input tokens of an answered call (usage.input_tokens); every input token of a refused one. */
  inputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  outputTokens: number;
  requestId: string;
  /** Set when the request asked for JSON held to a schema (`output_config.format`); absent for a tool call. */
  constrained?: true;
  /** Set for an entry of a Message Batch (billed at the batch price); absent for a live call. */
  lane?: 'batch';
  /**
   * Set when the client went away before the answer (a killed worker, an aborted call): billed all the same, as a
   * provider bills the work it did, but its client never learned what it cost.
   */
  undelivered?: true;
}

interface LoggedCall extends CallRecord {
  /** Kept only to filter by `textIncludes`; never returned. */
  documentText: string;
}

export interface ToolStats {
  requests: number;
  /** Answered with HTTP 200 (billed), refusals and malformed answers included. */
  ok: number;
}

export interface StatsSnapshot {
  requests: number;
  byStatus: Record<string, number>;
  byTool: Record<string, ToolStats>;
  byFault: Record<string, number>;
  /** Tokens of calls answered 200: what a user is billed. */
  inputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  outputTokens: number;
  /** Input tokens of calls answered with an error: sent, not billed. */
  rejectedInputTokens: number;
  countTokensRequests: number;
}

export interface CallFilter {
  textIncludes?: string;
  tool?: string;
  status?: number;
  limit?: number;
}

/** Bounded so a long benchmark cannot grow the simulator without limit. */
export const CALL_LOG_LIMIT = 10_000;
/** Documents are cut to this length in the log; markers for `textIncludes` belong near the start. */
const LOGGED_TEXT_LIMIT = 20_000;

function emptySnapshot(): StatsSnapshot {
  return {
    requests: 0,
    byStatus: {},
    byTool: {},
    byFault: {},
    inputTokens: 0,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: 0,
    outputTokens: 0,
    rejectedInputTokens: 0,
    countTokensRequests: 0,
  };
}

/** Totals and a recent-call log for Messages calls, so tests and benchmarks can see what the "provider" saw. */
export class SimulatorStats {
  private totals = emptySnapshot();
  private log: LoggedCall[] = [];

  recordCall(call: CallRecord, documentText: string): void {
    const totals = this.totals;
    totals.requests += 1;
    totals.byStatus[call.status] = (totals.byStatus[call.status] ?? 0) + 1;
    if (call.fault) totals.byFault[call.fault] = (totals.byFault[call.fault] ?? 0) + 1;
    if (call.tool) {
      const tool = (totals.byTool[call.tool] ??= { requests: 0, ok: 0 });
      tool.requests += 1;
      if (call.status === 200) tool.ok += 1;
    }
    if (call.status === 200) {
      totals.inputTokens += call.inputTokens;
      totals.cacheCreationInputTokens += call.cacheCreationInputTokens;
      totals.cacheReadInputTokens += call.cacheReadInputTokens;
      totals.outputTokens += call.outputTokens;
    } else {
      totals.rejectedInputTokens += call.inputTokens;
    }
    this.log.push({ ...call, documentText: documentText.slice(0, LOGGED_TEXT_LIMIT) });
    if (this.log.length > CALL_LOG_LIMIT) this.log.splice(0, this.log.length - CALL_LOG_LIMIT);
  }

  recordCountTokens(): void {
    this.totals.countTokensRequests += 1;
  }

  snapshot(): StatsSnapshot {
    return structuredClone(this.totals);
  }

  calls(filter: CallFilter = {}): CallRecord[] {
    const selected = this.log.filter(
      (call) =>
        (filter.tool === undefined || call.tool === filter.tool) &&
        (filter.status === undefined || call.status === filter.status) &&
        (filter.textIncludes === undefined || call.documentText.includes(filter.textIncludes)),
    );
    const limited = filter.limit === undefined ? selected : selected.slice(-filter.limit);
    return limited.map(({ documentText: _text, ...call }) => call);
  }

  reset(): void {
    this.totals = emptySnapshot();
    this.log = [];
  }
}
