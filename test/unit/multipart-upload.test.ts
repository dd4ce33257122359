import assert from '../support/assert';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import express from 'express';
import { ApiError } from '../../api/api-error';
import { receiveUpload, type ReceivedUpload } from '../../api/multipart-upload';
import { sniffContentType } from '../../api/sniff-content-type';

const MAX_BYTES = 4096;
const BOUNDARY = 'slowlane-test-boundary';
const pdf = Buffer.from('%PDF-1.4\n% a small document\n');

type Outcome = { upload: ReceivedUpload; bytes: Buffer } | { error: ApiError };

/** An express app whose one route receives an upload into `tmpDir` and hands the outcome to the waiting test. */
async function startReceiver(tmpDir: string) {
  const outcomes: Array<(outcome: Outcome) => void> = [];
  const nextOutcome = () => new Promise<Outcome>((resolve) => outcomes.push(resolve));
  const app = express();
  app.post('/upload', async (req, res) => {
    const report = outcomes.shift() ?? (() => undefined);
    try {
      const upload = await receiveUpload(req, { maxBytes: MAX_BYTES, tmpDir });
      report({ upload, bytes: await readFile(upload.path) });
      res.status(204).end();
    } catch (error) {
      assert.ok(error instanceof ApiError, String(error));
      report({ error });
      res.status(error.status).end();
    }
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/upload`,
    nextOutcome,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function part(name: string, value: string | Buffer, fileName?: string): Buffer {
  const disposition = `form-data; name="${name}"${fileName ? `; filename="${fileName}"` : ''}`;
  return Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\n`), Buffer.from(value), Buffer.from('\r\n')]);
}

function body(...parts: Buffer[]): Buffer {
  return Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);
}

async function post(url: string, payload: Buffer): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body: payload });
  return response.status;
}

/** Sends the request head and `sent` of the body over a raw socket, leaving `declaredLength` bytes promised. */
async function sendPartially(port: number, sent: Buffer, declaredLength: number) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.on('error', () => undefined);
  socket.write(
    `POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
      `Content-Length: ${declaredLength}\r\n\r\n`,
  );
  socket.write(sent);
  return socket;
}

describe('receiveUpload: multipart to a temporary file, hashed, size-limited and typed by its bytes', () => {
  let tmpDir: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const leftovers = () => readdir(tmpDir);

  beforeAll(async () => {
    tmpDir = await mkdtemp(join(tmpdir(), 'slowlane-upload-test-'));
    receiver = await startReceiver(tmpDir);
  });
  afterAll(async () => {
    await receiver.close();
    await rm(tmpDir, { recursive: true, force: true });
  });

  test('when a PDF and fields arrive, then the file holds its bytes with their SHA-256, and cleanup() removes it', async () => {
    const outcome = receiver.nextOutcome();
    assert.equal(await post(receiver.url, body(part('type', 'invoice'), part('file', pdf, 'a.pdf'))), 204);
    const received = await outcome;
    assert.ok('upload' in received);
    const { upload, bytes } = received;
    assert.deepEqual(bytes, pdf);
    assert.equal(upload.sha256, createHash('sha256').update(pdf).digest('hex'));
    assert.equal(upload.sizeBytes, pdf.length);
    assert.equal(upload.contentType, 'application/pdf');
    assert.equal(upload.fileName, 'a.pdf');
    assert.deepEqual(upload.fields, { type: 'invoice' });
    await upload.cleanup();
    assert.deepEqual(await leftovers(), []);
  });

  const refusals: Array<{ when: string; payload: Buffer; status: number; code: string; message?: RegExp }> = [
    {
      when: 'the file is larger than the limit',
      payload: body(part('file', Buffer.concat([pdf, Buffer.alloc(MAX_BYTES, 0x20)]), 'big.pdf')),
      status: 413,
      code: 'payload_too_large',
    },
    {
      when: 'the bytes are neither PDF nor text',
      // A GIF header: binary, and not one of the images Slowlane takes (PNG and JPEG are).
      payload: body(part('file', Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0, 0x01, 0, 0x80, 0, 0]), 'invoice.pdf')),
      status: 415,
      code: 'unsupported_media_type',
    },
    { when: 'the file part is missing', payload: body(part('type', 'invoice')), status: 400, code: 'invalid_request', message: /"file"/ },
    { when: 'the file is empty', payload: body(part('file', '', 'a.pdf')), status: 400, code: 'invalid_request', message: /empty/ },
    {
      when: 'a second file part is sent',
      payload: body(part('file', pdf, 'a.pdf'), part('file', pdf, 'b.pdf')),
      status: 400,
      code: 'invalid_request',
      message: /exactly one part named "file"/,
    },
    {
      when: 'the body ends in the middle of the file',
      payload: Buffer.concat([part('type', 'invoice'), part('file', pdf, 'a.pdf').subarray(0, -2)]),
      status: 400,
      code: 'invalid_request',
      message: /malformed multipart/,
    },
  ];
  for (const { when, payload, status, code, message } of refusals) {
    test(`when ${when}, then ${status} ${code} and no temporary file is left`, async () => {
      const outcome = receiver.nextOutcome();
      assert.equal(await post(receiver.url, payload), status);
      const received = await outcome;
      assert.ok('error' in received);
      assert.equal(received.error.code, code);
      if (message) assert.match(received.error.message, message);
      assert.deepEqual(await leftovers(), []);
    });
  }

  test('when the client goes away in the middle of the file, then the upload is given up and its temporary file removed', async () => {
    const outcome = receiver.nextOutcome();
    const started = Buffer.concat([part('type', 'invoice'), part('file', pdf, 'a.pdf').subarray(0, -2)]);
    const socket = await sendPartially(receiver.port, started, started.length + 1000);
    // The file exists while its bytes arrive; then the connection drops before the body is complete.
    for (let i = 0; i < 100 && (await leftovers()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal((await leftovers()).length, 1, 'the upload is being written');
    socket.destroy();
    const received = await outcome;
    assert.ok('error' in received);
    assert.equal(received.error.status, 400);
    assert.deepEqual(await leftovers(), []);
  });

  test('when the declared length is over the limit, then 413 before any file is written', async () => {
    const outcome = receiver.nextOutcome();
    const socket = await sendPartially(receiver.port, Buffer.alloc(0), MAX_BYTES + 64 * 1024 + 1);
    socket.end(Buffer.alloc(MAX_BYTES + 64 * 1024 + 1));
    const received = await outcome;
    assert.ok('error' in received);
    assert.equal(received.error.code, 'payload_too_large');
    assert.deepEqual(await leftovers(), []);
    socket.destroy();
  });

  test('when the file name is longer than 255 bytes, then 400 naming the file, and nothing is left behind', async () => {
    const outcome = receiver.nextOutcome();
    const status = await post(receiver.url, body(part('type', 'invoice'), part('file', '%PDF-1.7 tiny', `${'é'.repeat(128)}.pdf`)));
    assert.equal(status, 400);
    const received = await outcome;
    assert.ok('error' in received);
    assert.equal(received.error.details?.field, 'file');
    assert.match(received.error.message, /file name is longer than 255 bytes/);
    assert.deepEqual(await leftovers(), []);
  });

  test('when the file name is 255 bytes, then it is kept as sent', async () => {
    const outcome = receiver.nextOutcome();
    const name = `${'n'.repeat(251)}.pdf`;
    assert.equal(await post(receiver.url, body(part('file', '%PDF-1.7 tiny', name))), 204);
    const received = await outcome;
    assert.ok('upload' in received);
    assert.equal(received.upload.fileName, name);
    await received.upload.cleanup();
  });

  test('when the body is not multipart, then 400 saying how to send it', async () => {
    const outcome = receiver.nextOutcome();
    const response = await fetch(receiver.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(response.status, 400);
    const received = await outcome;
    assert.ok('error' in received);
    assert.match(received.error.message, /multipart\/form-data/);
  });
});

describe('sniffContentType: the type by the bytes, never the name', () => {
  test('when the PDF header is within the first 1024 bytes, then it is a PDF', () => {
    assert.equal(sniffContentType(pdf), 'application/pdf');
    assert.equal(sniffContentType(Buffer.concat([Buffer.alloc(1000, 0x20), pdf])), 'application/pdf');
    assert.equal(sniffContentType(Buffer.concat([Buffer.alloc(1100, 0), pdf])), undefined);
  });

  test('when the bytes are UTF-8 text, then text/plain; binary, NUL bytes or nothing are refused', () => {
    assert.equal(sniffContentType(Buffer.from('Invoice 42\nTotal: 12,50 €\n')), 'text/plain');
    // A multi-byte character cut at the end of the sample is still text.
    assert.equal(sniffContentType(Buffer.from('Total €').subarray(0, -1)), 'text/plain');
    assert.equal(sniffContentType(Buffer.from([0xff, 0xfe, 0x41, 0x42])), undefined);
    assert.equal(sniffContentType(Buffer.from('text\0with a NUL')), undefined);
    assert.equal(sniffContentType(Buffer.alloc(0)), undefined);
  });
});
