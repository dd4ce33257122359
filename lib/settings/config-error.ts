/** A setting that is missing or bad; the message names every one of them, so one restart fixes them all. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
