import type { SettingType } from '../../lib/settings/setting';
import { isLoopbackHost } from './ports';

/**
 * Where a local stand-in may listen. They have no real authentication and a control surface that rewrites
 * faults and limits, so they must never be reachable from another machine.
 */
export const loopbackHost: SettingType<string> = {
  description: 'loopback host',
  parse: (raw) =>
    isLoopbackHost(raw)
      ? { ok: true, value: raw }
      : { ok: false, problems: [{ path: '', message: 'must be a loopback address (127.x.x.x, ::1 or localhost)' }] },
};
