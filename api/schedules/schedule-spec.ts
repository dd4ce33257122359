import type { ScheduleSpec } from '@temporalio/client';
import { CRON_FIELD, type ScheduleRequest } from '../../common/api-contract/schedule';
import { apiErrors } from '../api-error';

const CRON_MACROS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly']);
const CRON_FIELD_PATTERN = new RegExp(`^${CRON_FIELD}$`);

const invalid = (field: string, message: string) => apiErrors.invalidRequest(message, { field });

/** A cron the way our contract documents it; the Temporal server checks the values again and answers a 400 too. */
export function checkCron(cron: string): string {
  const trimmed = cron.trim().replace(/\s+/g, ' ');
  if (CRON_MACROS.has(trimmed.toLowerCase())) return trimmed.toLowerCase();
  const fields = trimmed.split(' ');
  if (fields.length !== 5 || !fields.every((field) => CRON_FIELD_PATTERN.test(field))) {
    throw invalid('cron', `"cron" must be five fields, minute hour day-of-month month day-of-week (e.g. "0 6 * * *"), or @daily/@hourly/@weekly/@monthly; got "${cron}"`);
  }
  return trimmed;
}

/** An IANA zone the runtime knows (the same tz database the Temporal server reads). */
export function checkTimezone(timezone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    throw invalid('timezone', `"timezone" must be an IANA time zone such as "UTC" or "Europe/Berlin"; got "${timezone}"`);
  }
}

/** When the schedule fires, as Temporal's ScheduleSpec: one cron or one interval, read in one time zone. */
export function scheduleSpecOf(request: Pick<ScheduleRequest, 'cron' | 'every' | 'timezone'>): { spec: ScheduleSpec; timezone: string } {
  if ((request.cron === undefined) === (request.every === undefined)) {
    throw invalid(request.cron === undefined ? 'cron' : 'every', 'send exactly one of "cron" (e.g. "0 6 * * *") and "every" (e.g. "1d")');
  }
  const timezone = checkTimezone(request.timezone ?? 'UTC');
  if (request.cron !== undefined) return { spec: { cronExpressions: [checkCron(request.cron)], timezone }, timezone };
  const every = request.every as string;
  const amount = Number(every.slice(0, -1));
  const unit = every.slice(-1) as 'm' | 'h' | 'd';
  const minutes = amount * { m: 1, h: 60, d: 1440 }[unit];
  // A year between runs is no daily digest; it is a typo, and the server would accept it silently.
  if (minutes > 366 * 1440) throw invalid('every', '"every" must be at most 366 days');
  return { spec: { intervals: [{ every: minutes * 60_000 }], timezone }, timezone };
}
