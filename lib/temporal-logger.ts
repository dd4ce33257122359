import type { LogLevel, LogMetadata, Logger as TemporalLogger } from '@temporalio/common';
import type { Logger } from './logger';

const PINO_LEVEL: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/** Routes the Temporal SDK's logs (worker, workflow and activity loggers) into our JSON logs and levels. */
export function temporalLoggerFor(log: Logger): TemporalLogger {
  const write = (level: LogLevel, message: string, meta?: LogMetadata) => log[PINO_LEVEL[level]](meta ?? {}, message);
  return {
    log: write,
    trace: (message, meta) => write('TRACE', message, meta),
    debug: (message, meta) => write('DEBUG', message, meta),
    info: (message, meta) => write('INFO', message, meta),
    warn: (message, meta) => write('WARN', message, meta),
    error: (message, meta) => write('ERROR', message, meta),
  };
}
