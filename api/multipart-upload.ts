import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request } from 'express';
import busboy from 'busboy';
import { ApiError, apiErrors } from './api-error';
import { sniffContentType, type SniffedType } from './sniff-content-type';

/** As long as most file systems allow for one name. */
export const MAX_FILE_NAME_BYTES = 255;

export interface ReceivedUpload {
  /** A temporary file holding the upload; removed by cleanup(). */
  path: string;
  sha256: string;
  sizeBytes: number;
  fileName: string;
  contentType: SniffedType;
  fields: Record<string, string>;
  cleanup(): Promise<void>;
}

const SNIFF_BYTES = 8 * 1024;
const MAX_FIELDS = 20;
const ONE_FILE_PART = 'send exactly one part named "file"';

/**
 * Streams a multipart upload to a temporary file while hashing it and enforcing the size limit, so memory
 * stays flat whatever the file size and nothing reaches S3 before the request is known to be valid. Whatever
 * happens (a refusal, a malformed body, a client that goes away, a disk error) the promise settles and the
 * temporary file is gone unless the upload is handed over.
 */
export function receiveUpload(req: Request, options: { maxBytes: number; tmpDir: string }): Promise<ReceivedUpload> {
  if (!req.is('multipart/form-data')) {
    return Promise.reject(apiErrors.invalidRequest('send the document as multipart/form-data with a "file" part'));
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes + 64 * 1024) {
    return drainThenReject(req, apiErrors.payloadTooLarge(options.maxBytes));
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: { files: 1, fileSize: options.maxBytes, fields: MAX_FIELDS, fieldSize: 16 * 1024, parts: MAX_FIELDS + 1 },
    });
  } catch (error) {
    return Promise.reject(apiErrors.invalidRequest(`malformed multipart request: ${(error as Error).message}`));
  }

  return new Promise((resolve, reject) => {
    const path = join(options.tmpDir, `slowlane-upload-${randomUUID()}`);
    const fields: Record<string, string> = {};
    const hash = createHash('sha256');
    let head = Buffer.alloc(0);
    let sizeBytes = 0;
    let fileName: string | undefined;
    let out: WriteStream | undefined;
    let fileClosed: Promise<void> | undefined;
    let failure: ApiError | undefined;
    let settled = false;

    const cleanup = async (): Promise<void> => {
      // The file is opened asynchronously: removing it before its stream has closed could let the open re-create it.
      if (out && !out.closed) {
        const closing = fileClosed;
        out.destroy();
        await closing;
      }
      await rm(path, { force: true });
    };
    /** A refusal found while reading: the rest of the body is still read, so the client gets the answer. */
    const fail = (error: ApiError) => {
      failure ??= error;
    };
    /** Nothing more can come of this body (the client went away, the parser or the disk failed): stop reading now. */
    const abandon = (error: ApiError) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.resume();
      parser.destroy();
      void cleanup().then(
        () => reject(error),
        () => reject(error),
      );
    };

    parser.on('file', (name, stream, info) => {
      // busboy destroys an unfinished file stream with the parser's error, which the parser reports itself.
      stream.on('error', () => undefined);
      if (name !== 'file') {
        fail(apiErrors.invalidRequest(`unexpected file part "${name}"; ${ONE_FILE_PART}`));
        stream.resume();
        return;
      }
      fileName = info.filename || 'document';
      // The name is kept in the memo and repeated on every list page: a 10 kB name would be stored and sent forever.
      if (Buffer.byteLength(fileName) > MAX_FILE_NAME_BYTES) {
        fail(apiErrors.invalidRequest(`the file name is longer than ${MAX_FILE_NAME_BYTES} bytes; rename the file`, { field: 'file' }));
      }
      const file = createWriteStream(path, { mode: 0o600 });
      out = file;
      fileClosed = new Promise((done) => file.once('close', done));
      file.on('error', (error) => abandon(new ApiError(500, 'internal', `could not buffer the upload: ${error.message}`)));
      stream.on('data', (chunk: Buffer) => {
        sizeBytes += chunk.length;
        hash.update(chunk);
        if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
      });
      stream.on('limit', () => fail(apiErrors.payloadTooLarge(options.maxBytes)));
      stream.pipe(file);
    });
    parser.on('filesLimit', () => fail(apiErrors.invalidRequest(`more than one file part; ${ONE_FILE_PART}`)));
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(apiErrors.invalidRequest(`field "${name}" is too long`));
      fields[name] = value;
    });
    parser.on('fieldsLimit', () => fail(apiErrors.invalidRequest(`too many fields (at most ${MAX_FIELDS})`)));
    parser.on('error', (error: Error) => abandon(apiErrors.invalidRequest(`malformed multipart request: ${error.message}`)));
    parser.on('close', () => {
      void (async () => {
        await fileClosed;
        if (settled) return;
        settled = true;
        if (!failure && !out) failure = apiErrors.invalidRequest('the "file" part is missing');
        if (!failure && sizeBytes === 0) failure = apiErrors.invalidRequest('the file is empty');
        const contentType = sniffContentType(head);
        if (!failure && !contentType) failure = apiErrors.unsupportedMediaType();
        if (failure || !contentType) {
          await cleanup();
          reject(failure);
          return;
        }
        resolve({ path, sha256: hash.digest('hex'), sizeBytes, fileName: fileName ?? 'document', contentType, fields, cleanup });
      })();
    });
    req.on('close', () => {
      if (!req.complete) abandon(apiErrors.invalidRequest('the upload ended before the request was complete'));
    });
    req.pipe(parser);
  });
}

/** Reading the rest of an oversized body lets the client see our 413 instead of a reset connection. */
function drainThenReject(req: Request, error: ApiError): Promise<never> {
  return new Promise((_, reject) => {
    req.on('end', () => reject(error));
    req.on('error', () => reject(error));
    req.resume();
  });
}
