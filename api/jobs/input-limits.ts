import type { Limit, LimitSetting } from '../../common/job-types/job-type';
import type { Config } from '../../lib/config';

/** The values of the settings a type's limits may name, as this deployment has them. */
export type LimitSettings = Readonly<Record<LimitSetting, number>>;

/** Every LimitSetting must be read here: a new name in the union fails the type check until it is. */
export function limitSettingsOf(config: Pick<Config, 'document' | 'anthropic' | 'call'>): LimitSettings {
  return {
    DOCUMENT_MAX_PAGES: config.document.maxPages,
    MODEL_SCANNED_MAX_PAGES: config.anthropic.scannedMaxPages,
    CALL_MAX_DURATION_SECONDS: config.call.maxDurationSeconds,
  };
}

export function limitValue(limit: Limit, settings: LimitSettings): number {
  return typeof limit === 'number' ? limit : settings[limit.setting];
}
