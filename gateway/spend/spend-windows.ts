import type { SPEND_WINDOWS } from '../../common/api-contract/job-parts';

/** A tenant's spend is counted per UTC day and per UTC month; each cap applies to its own window. */
export type SpendWindow = (typeof SPEND_WINDOWS)[number];

/** USD a tenant may spend per window; an absent cap is no cap. */
export interface SpendCaps {
  dailyUsd?: number;
  monthlyUsd?: number;
}

export interface WindowAt {
  window: SpendWindow;
  /** `2026-12-03` or `2026-12`: part of the store's key, so a new window starts from zero by itself. */
  key: string;
  /** Epoch ms of the first moment of the next window. */
  endsAt: number;
  capUsd: number | undefined;
}

/** The day and month windows `now` falls in (UTC), each with its cap. */
export function windowsAt(now: number, caps: SpendCaps): [WindowAt, WindowAt] {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  const iso = date.toISOString();
  return [
    { window: 'day', key: iso.slice(0, 10), endsAt: Date.UTC(year, month, day + 1), capUsd: caps.dailyUsd },
    { window: 'month', key: iso.slice(0, 7), endsAt: Date.UTC(year, month + 1, 1), capUsd: caps.monthlyUsd },
  ];
}

export function hasCap(caps: SpendCaps | undefined): caps is SpendCaps {
  return caps !== undefined && (caps.dailyUsd !== undefined || caps.monthlyUsd !== undefined);
}
