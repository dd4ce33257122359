import pino, { type Logger } from 'pino';

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
];

/** JSON logs, object first: `log.info({ jobId }, 'message')`. LOG_LEVEL=silent turns them off in tests. */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name,
    level,
    base: { service: name },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
