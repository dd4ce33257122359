import { ConfigError } from '../../lib/settings/config-error';
import { apiError } from './api-errors';
import { parseFaultRuleInput } from './faults';
import { parseLimitsPatch } from './limit-changes';
import { errorReply, jsonReply, type HttpReply } from './http-reply';
import { parseSettingsPatch } from './options';
import { limitsOf, type SimulatorState } from './state';
import type { CallFilter } from './stats';

/** The `/_sim/*` control surface: settings, fault rules, stats and reset, for tests and benchmarks. */

export function getConfig(state: SimulatorState): HttpReply {
  return jsonReply(200, state.settings);
}

export function putConfig(state: SimulatorState, body: unknown): HttpReply {
  try {
    return jsonReply(200, state.applySettings(parseSettingsPatch(body)));
  } catch (error) {
    if (error instanceof ConfigError) return errorReply(apiError('invalid_request_error', error.message));
    throw error;
  }
}

/**
 * The Messages API's limits now and at start-up, each bucket's exact level (below zero when overdrawn, which the
 * headers never show) and every change since start-up.
 */
export function getLimits(state: SimulatorState): HttpReply {
  return jsonReply(200, {
    limits: limitsOf(state.settings),
    startup: state.limitHistory.startup,
    levels: state.limiter.levels(),
    changes: state.limitHistory.list(),
  });
}

/** Lowers (or raises) the limits mid-run; the rate-limit headers report them from the next answer on. */
export function putLimits(state: SimulatorState, body: unknown): HttpReply {
  try {
    state.applySettings(parseLimitsPatch(body, state.limitHistory.startup));
    return getLimits(state);
  } catch (error) {
    if (error instanceof ConfigError) return errorReply(apiError('invalid_request_error', error.message));
    throw error;
  }
}

/** Back to the limits the simulator started with. */
export function restoreLimits(state: SimulatorState): HttpReply {
  state.applySettings({ ...state.limitHistory.startup });
  return getLimits(state);
}

export function addFaultRule(state: SimulatorState, body: unknown): HttpReply {
  const parsed = parseFaultRuleInput(body);
  if (!parsed.ok) return errorReply(apiError('invalid_request_error', parsed.message));
  const rule = state.rules.add(parsed.value);
  return jsonReply(201, { id: rule.id });
}

export function listFaultRules(state: SimulatorState): HttpReply {
  return jsonReply(200, { rules: state.rules.list() });
}

export function clearFaultRules(state: SimulatorState): HttpReply {
  state.rules.clear();
  return jsonReply(200, { cleared: true });
}

export function removeFaultRule(state: SimulatorState, id: string): HttpReply {
  if (!state.rules.remove(id)) return errorReply(apiError('not_found_error', `no fault rule ${id}`));
  return jsonReply(200, { removed: id });
}

export function getStats(state: SimulatorState): HttpReply {
  return jsonReply(200, state.stats.snapshot());
}

function positiveInteger(raw: string | null): number | undefined {
  if (raw === null || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

export function getCalls(state: SimulatorState, query: URLSearchParams): HttpReply {
  const filter: CallFilter = {};
  const textIncludes = query.get('textIncludes');
  const tool = query.get('tool');
  const status = positiveInteger(query.get('status'));
  const limit = positiveInteger(query.get('limit'));
  if (textIncludes) filter.textIncludes = textIncludes;
  if (tool) filter.tool = tool;
  if (status !== undefined) filter.status = status;
  if (limit !== undefined) filter.limit = limit;
  return jsonReply(200, { calls: state.stats.calls(filter) });
}

export function resetSimulator(state: SimulatorState): HttpReply {
  state.reset();
  return jsonReply(200, { reset: true });
}
