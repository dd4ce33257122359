import type { JobTypeDefinition, Limit, LimitSetting } from '../../common/job-types/job-type';
import type { Config } from '../../lib/config';

/** The values of the settings a type's limits may name, as this deployment has them. */
export type LimitSettings = Readonly<Record<LimitSetting, number>>;

/** Every LimitSetting must be read here: a new name in the union fails the type check until it is. */
export function limitSettingsOf(config: Pick<Config, 'api' | 'document' | 'anthropic' | 'call'>): LimitSettings {
  return {
    MAX_UPLOAD_BYTES: config.api.maxUploadBytes,
    DOCUMENT_MAX_PAGES: config.document.maxPages,
    MODEL_SCANNED_MAX_PAGES: config.anthropic.scannedMaxPages,
    CALL_MAX_DURATION_SECONDS: config.call.maxDurationSeconds,
    CALL_MAX_UPLOAD_BYTES: config.call.maxUploadBytes,
  };
}

/** The most bytes a file kind takes: its own limit, else the API's. */
export function maxBytesOf(kind: { maxBytes?: Limit }, settings: LimitSettings): number {
  return limitValue(kind.maxBytes ?? { setting: 'MAX_UPLOAD_BYTES' }, settings);
}

/**
 * The most bytes the door reads of any upload: the largest any type's file kind takes. The type is known only once
 * the form is read, so each kind's own limit is held after the upload is spooled (checkFileInput).
 */
export function largestUploadBytes(types: readonly JobTypeDefinition[], settings: LimitSettings): number {
  const kinds = types.flatMap((type) => (type.input.kind === 'file' ? type.input.accepts : []));
  return Math.max(settings.MAX_UPLOAD_BYTES, ...kinds.map((kind) => maxBytesOf(kind, settings)));
}

export function limitValue(limit: Limit, settings: LimitSettings): number {
  return typeof limit === 'number' ? limit : settings[limit.setting];
}
