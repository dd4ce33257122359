import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../../lib/logger';
import { MAX_BODY_BYTES } from './json-body';
import { LedgerHttpError } from './ledger-http-error';

/** The one place a throwable becomes a status and a JSON `{ error: { code, message } }`. */
export function createErrorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) {
      // Too late for a JSON answer; Express's default handler closes the connection.
      next(error);
      return;
    }
    const httpError = toLedgerHttpError(error);
    if (httpError.status >= 500) log.error({ err: error, method: req.method, path: req.path }, 'request failed');
    res.status(httpError.status).json(httpError.toBody());
  };
}

export const answerRouteNotFound: RequestHandler = (req) => {
  throw new LedgerHttpError({
    status: 404,
    code: 'route_not_found',
    message: `no route ${req.method} ${req.path}; the ledger serves /entries, /entries/:id, /healthz and /_ledger/*`,
  });
};

function toLedgerHttpError(error: unknown): LedgerHttpError {
  if (error instanceof LedgerHttpError) return error;
  const parserError = asBodyParserError(error);
  if (parserError) return fromBodyParserError(parserError);
  if (isClientErrorFromExpress(error)) {
    return new LedgerHttpError({
      status: 400,
      code: 'bad_request',
      message: `the request could not be read: ${error.message}`,
    });
  }
  return new LedgerHttpError({
    status: 500,
    code: 'internal_error',
    message: 'the ledger failed to handle the request; it is safe to retry with the same Idempotency-Key',
  });
}

/** Errors from express.json (http-errors with a `type`). */
interface BodyParserError {
  type: string;
  status: number;
  message: string;
}

function asBodyParserError(error: unknown): BodyParserError | undefined {
  if (!(error instanceof Error)) return undefined;
  const { type, status } = error as Error & { type?: unknown; status?: unknown };
  if (typeof type !== 'string' || typeof status !== 'number') return undefined;
  return { type, status, message: error.message };
}

/** E.g. the router's 400 for a path parameter that is not valid percent-encoding. */
function isClientErrorFromExpress(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  const { status } = error as Error & { status?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500;
}

function fromBodyParserError(error: BodyParserError): LedgerHttpError {
  switch (error.type) {
    case 'entity.too.large':
      return new LedgerHttpError({
        status: 413,
        code: 'payload_too_large',
        message: `the body is larger than ${MAX_BODY_BYTES} bytes (1 MB); post one invoice per entry`,
      });
    case 'entity.parse.failed':
      return new LedgerHttpError({
        status: 400,
        code: 'invalid_json',
        message: `the body is not a JSON object: ${error.message}`,
      });
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new LedgerHttpError({
        status: 415,
        code: 'unsupported_media_type',
        message: 'send uncompressed UTF-8 JSON (no Content-Encoding, charset utf-8)',
      });
    default:
      return new LedgerHttpError({
        status: error.status >= 400 && error.status < 500 ? 400 : 500,
        code: error.status >= 400 && error.status < 500 ? 'invalid_body' : 'internal_error',
        message: `the request body could not be read: ${error.message}`,
      });
  }
}
