import express, { type Request, type Response } from 'express';
import { LedgerHttpError } from './ledger-http-error';

/** 1 MB: a large invoice with hundreds of line items is well under 100 KB. */
export const MAX_BODY_BYTES = 1024 * 1024;

const parseJson = express.json({
  limit: MAX_BODY_BYTES,
  // The media type is checked below, with an answer that says what to send instead.
  type: () => true,
  // Decompressing would let a small upload expand past the limit's intent; nobody needs it on loopback.
  inflate: false,
});

/** Reads the request's JSON body; `undefined` when the request has none. Parser failures reach the error handler. */
export async function readJsonBody(req: Request, res: Response): Promise<unknown> {
  if (!isJsonMediaType(req.headers['content-type'])) {
    throw new LedgerHttpError({
      status: 415,
      code: 'unsupported_media_type',
      message: 'send the body as JSON with the header Content-Type: application/json',
    });
  }
  await new Promise<void>((resolve, reject) => {
    parseJson(req, res, (error?: unknown) => (error === undefined ? resolve() : reject(error)));
  });
  const body: unknown = req.body;
  return body;
}

function isJsonMediaType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}
