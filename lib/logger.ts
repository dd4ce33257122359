import pino, { type Logger } from 'pino';
import { traceLogFields } from './tracing-log';

export type { Logger };

/** Keys whose values never reach a log line, wherever they sit in the logged object. */
const REDACTED_PATHS = [
  'apiKey',
  '*.apiKey',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'secret',
  '*.secret',
  'password',
  '*.password',
  'token',
  '*.token',
  'reviewerToken',
  '*.reviewerToken',
  'webhookSecret',
  '*.webhookSecret',
  'headers.cookie',
];

/** JSON logs, object first: `log.info({ jobId }, 'message')`. The level comes from config (LOG_LEVEL). */
export function createLogger(name: string, level = 'info'): Logger {
  return pino({
    name,
    level,
    base: { service: name },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin: traceLogFields,
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
