import assert from '../support/assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../api/api-error';
import { checkFileInput } from '../../api/jobs/check-file-input';
import { largestUploadBytes, type LimitSettings, limitSettingsOf } from '../../api/jobs/input-limits';
import type { ReceivedUpload } from '../../api/multipart-upload';
import { defineJobType, type FileKind } from '../../common/job-types/job-type';
import { JOB_TYPE_DEFINITIONS } from '../../common/job-types/registry';
import type { UploadContentType } from '../../common/upload-content-type';
import { renderLongDocument } from '../../local/samples/long-document';
import { localTestConfig } from '../support/test-credentials';

const SETTINGS: LimitSettings = { MAX_UPLOAD_BYTES: 10_000_000, DOCUMENT_MAX_PAGES: 4, MODEL_SCANNED_MAX_PAGES: 2, CALL_MAX_DURATION_SECONDS: 60, CALL_MAX_UPLOAD_BYTES: 20_000_000 };
/** Byte limits small enough to cross with a few bytes. */
const SMALL: LimitSettings = { ...SETTINGS, MAX_UPLOAD_BYTES: 40, CALL_MAX_UPLOAD_BYTES: 80 };

/** A type no shared code knows, declaring its limits only in its definition. */
function typeAccepting(...accepts: FileKind[]) {
  return defineJobType({
    name: 'example.pages',
    summary: 'a type made up for the test',
    input: { kind: 'file', accepts },
    workflowType: 'examplePagesWorkflow',
    priorities: ['bulk'],
    defaultPriority: 'bulk',
    steps: ['readIt'],
    result: Type.Object({}),
    review: { kind: 'none' },
    webhook: { includesResult: false },
    reviewer: { title: 'Example', showsDocument: false, sections: [] },
  });
}

/** The 413 the check answers, or undefined when the upload passes. */
async function refusal(check: Promise<void>): Promise<ApiError | undefined> {
  try {
    await check;
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

describe('the limits a type declares, checked at submission for any type', () => {
  let dir: string;
  let count = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'slowlane-input-limits-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function upload(bytes: Uint8Array | string, contentType: UploadContentType): Promise<ReceivedUpload> {
    const path = join(dir, `upload-${count++}`);
    await writeFile(path, bytes);
    const sizeBytes = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength;
    return { path, sha256: 'x', sizeBytes, fileName: 'f', contentType, fields: {}, cleanup: async () => undefined };
  }

  test('when a PDF has more pages than a fixed maxPages, then 413 too_many_pages names both counts', async () => {
    const jobType = typeAccepting({ contentType: 'application/pdf', maxPages: 3 });
    const error = await refusal(checkFileInput(jobType, await upload(await renderLongDocument(4), 'application/pdf'), SETTINGS));
    assert.equal(error?.status, 413);
    assert.equal(error?.code, 'too_many_pages');
    assert.deepEqual(error?.details, { pages: 4, limitPages: 3 });
  });

  test('when a PDF has exactly maxPages, then it passes', async () => {
    const jobType = typeAccepting({ contentType: 'application/pdf', maxPages: 3 });
    assert.equal(await refusal(checkFileInput(jobType, await upload(await renderLongDocument(3), 'application/pdf'), SETTINGS)), undefined);
  });

  test('when maxPages names a setting, then the deployment value of that setting is the limit', async () => {
    const pdf = await renderLongDocument(3);
    const byScanned = typeAccepting({ contentType: 'application/pdf', maxPages: { setting: 'MODEL_SCANNED_MAX_PAGES' } });
    const byDocument = typeAccepting({ contentType: 'application/pdf', maxPages: { setting: 'DOCUMENT_MAX_PAGES' } });
    assert.deepEqual((await refusal(checkFileInput(byScanned, await upload(pdf, 'application/pdf'), SETTINGS)))?.details, { pages: 3, limitPages: 2 });
    assert.equal(await refusal(checkFileInput(byDocument, await upload(pdf, 'application/pdf'), SETTINGS)), undefined);
  });

  test('when a text kind limits pages, then its form feeds are counted', async () => {
    const jobType = typeAccepting({ contentType: 'text/plain', maxPages: 2 });
    const error = await refusal(checkFileInput(jobType, await upload('one\ftwo\fthree', 'text/plain'), SETTINGS));
    assert.deepEqual([error?.code, error?.details], ['too_many_pages', { pages: 3, limitPages: 2 }]);
  });

  test('when a kind declares no page limit, then a long PDF passes', async () => {
    const jobType = typeAccepting({ contentType: 'application/pdf' });
    assert.equal(await refusal(checkFileInput(jobType, await upload(await renderLongDocument(6), 'application/pdf'), SETTINGS)), undefined);
  });

  test('when a PDF is not one pdf.js can open, then the page limit lets it through for the worker to judge', async () => {
    const jobType = typeAccepting({ contentType: 'application/pdf', maxPages: 1 });
    assert.equal(await refusal(checkFileInput(jobType, await upload('%PDF-1.4\n% not a real document\n', 'application/pdf'), SETTINGS)), undefined);
  });

  test('when a file is over maxBytes, then 413 payload_too_large with limitBytes, before its pages are counted', async () => {
    const jobType = typeAccepting({ contentType: 'text/plain', maxBytes: 5, maxPages: 1 });
    const error = await refusal(checkFileInput(jobType, await upload('a\fb\fcd', 'text/plain'), SETTINGS));
    assert.deepEqual([error?.status, error?.code, error?.details], [413, 'payload_too_large', { limitBytes: 5 }]);
  });

  test('when the configuration is read, then every setting a limit may name has its deployment value', () => {
    const settings = limitSettingsOf(
      localTestConfig({ MAX_UPLOAD_BYTES: '5', DOCUMENT_MAX_PAGES: '7', MODEL_SCANNED_MAX_PAGES: '9', CALL_MAX_DURATION_SECONDS: '11', CALL_MAX_UPLOAD_BYTES: '13' }),
    );
    assert.deepEqual(settings, { MAX_UPLOAD_BYTES: 5, DOCUMENT_MAX_PAGES: 7, MODEL_SCANNED_MAX_PAGES: 9, CALL_MAX_DURATION_SECONDS: 11, CALL_MAX_UPLOAD_BYTES: 13 });
  });

  test("when a kind names no byte limit, then the API's own holds it; when it names one, larger or smaller, that one does", async () => {
    const body = 'x'.repeat(60);
    const unlimited = typeAccepting({ contentType: 'text/plain' });
    const ownSetting = typeAccepting({ contentType: 'text/plain', maxBytes: { setting: 'CALL_MAX_UPLOAD_BYTES' } });
    const error = await refusal(checkFileInput(unlimited, await upload(body, 'text/plain'), SMALL));
    assert.deepEqual([error?.status, error?.details], [413, { limitBytes: 40 }]);
    assert.equal(await refusal(checkFileInput(ownSetting, await upload(body, 'text/plain'), SMALL)), undefined, "60 bytes under the kind's own 80");
    const over = await refusal(checkFileInput(ownSetting, await upload('x'.repeat(81), 'text/plain'), SMALL));
    assert.deepEqual([over?.status, over?.details], [413, { limitBytes: 80 }]);
  });

  test('when the door sizes its read, then it reads as much as the largest kind of any type takes, never less than MAX_UPLOAD_BYTES', () => {
    assert.equal(largestUploadBytes([typeAccepting({ contentType: 'text/plain', maxBytes: 7 })], SMALL), 40);
    assert.equal(largestUploadBytes([typeAccepting({ contentType: 'text/plain' }), typeAccepting({ contentType: 'audio/wav', maxBytes: { setting: 'CALL_MAX_UPLOAD_BYTES' } })], SMALL), 80);
    const deployed = limitSettingsOf(localTestConfig({}));
    assert.equal(largestUploadBytes(JOB_TYPE_DEFINITIONS, deployed), Math.max(deployed.MAX_UPLOAD_BYTES, deployed.CALL_MAX_UPLOAD_BYTES));
  });

  test('when the registry is read, then every type that takes PDFs declares how many pages it reads', () => {
    const unlimited = JOB_TYPE_DEFINITIONS.flatMap((definition) =>
      definition.input.kind === 'file'
        ? definition.input.accepts.filter((kind) => kind.contentType === 'application/pdf' && kind.maxPages === undefined).map(() => definition.name)
        : [],
    );
    assert.deepEqual(unlimited, []);
  });
});
