import type { HoldResult } from './spend-store';
import type { WindowAt } from './spend-windows';

/**
 * The refusal of a call costing `usd`, or undefined when every cap covers it. The month is checked first: when both
 * caps are reached, the job must wait for the month to turn. A window with nothing spent or held admits any call.
 */
export function refusalOf(
  windows: readonly WindowAt[],
  spentAndHeld: (key: string) => number,
  usd: number,
): Extract<HoldResult, { granted: false }> | undefined {
  for (const window of [...windows].reverse()) {
    if (window.capUsd === undefined) continue;
    const used = spentAndHeld(window.key);
    if (used > 0 && used + usd > window.capUsd) {
      return { granted: false, window: window.window, capUsd: window.capUsd, spentUsd: used, resumesAt: window.endsAt };
    }
  }
  return undefined;
}
