import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request } from 'express';
import busboy from 'busboy';
import { ApiError, apiErrors } from './api-error';
import { sniffContentType, type SniffedType } from './sniff-content-type';

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

/**
 * Streams a multipart upload to a temporary file while hashing it and enforcing the size limit, so memory
 * stays flat whatever the file size and nothing reaches S3 before the request is known to be valid.
 */
export function receiveUpload(req: Request, options: { maxBytes: number; tmpDir: string }): Promise<ReceivedUpload> {
  if (!req.is('multipart/form-data')) {
    return Promise.reject(apiErrors.invalidRequest('send the document as multipart/form-data with a "file" part'));
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes + 64 * 1024) {
    return drainThenReject(req, apiErrors.payloadTooLarge(options.maxBytes));
  }

  return new Promise((resolve, reject) => {
    const path = join(options.tmpDir, `slowlane-upload-${randomUUID()}`);
    const cleanup = () => rm(path, { force: true });
    const fields: Record<string, string> = {};
    const hash = createHash('sha256');
    let head = Buffer.alloc(0);
    let sizeBytes = 0;
    let fileName: string | undefined;
    let fileWritten: Promise<void> | undefined;
    let failure: ApiError | undefined;

    const fail = (error: ApiError) => {
      failure ??= error;
    };

    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: options.maxBytes, fields: MAX_FIELDS, fieldSize: 16 * 1024, parts: MAX_FIELDS + 1 },
      });
    } catch (error) {
      reject(apiErrors.invalidRequest(`malformed multipart request: ${(error as Error).message}`));
      return;
    }

    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || fileWritten) {
        fail(apiErrors.invalidRequest(`unexpected file part "${name}"; send exactly one part named "file"`));
        stream.resume();
        return;
      }
      fileName = info.filename || 'document';
      const out = createWriteStream(path);
      fileWritten = new Promise((done, broken) => {
        out.on('finish', done);
        out.on('error', broken);
      });
      stream.on('data', (chunk: Buffer) => {
        sizeBytes += chunk.length;
        hash.update(chunk);
        if (head.length < SNIFF_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
      });
      stream.on('limit', () => fail(apiErrors.payloadTooLarge(options.maxBytes)));
      stream.pipe(out);
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(apiErrors.invalidRequest(`field "${name}" is too long`));
      fields[name] = value;
    });
    parser.on('fieldsLimit', () => fail(apiErrors.invalidRequest(`too many fields (at most ${MAX_FIELDS})`)));
    parser.on('error', (error: Error) => {
      void cleanup();
      reject(apiErrors.invalidRequest(`malformed multipart request: ${error.message}`));
    });
    parser.on('close', () => {
      void (async () => {
        try {
          await fileWritten;
        } catch (error) {
          failure ??= new ApiError(500, 'internal', `could not buffer the upload: ${(error as Error).message}`);
        }
        if (!failure && !fileWritten) failure = apiErrors.invalidRequest('the "file" part is missing');
        if (!failure && sizeBytes === 0) failure = apiErrors.invalidRequest('the file is empty');
        const contentType = sniffContentType(head);
        if (!failure && !contentType) failure = apiErrors.unsupportedMediaType();
        if (failure || !contentType) {
          await cleanup();
          reject(failure);
          return;
        }
        resolve({
          path,
          sha256: hash.digest('hex'),
          sizeBytes,
          fileName: fileName ?? 'document',
          contentType,
          fields,
          cleanup,
        });
      })();
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
