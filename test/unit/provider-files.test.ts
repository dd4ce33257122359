import { afterAll, beforeAll, beforeEach, describe, test } from '@jest/globals';
import { scanAsProviderFile } from '../../activities/provider-file-media';
import { EXTRACT_INSTRUCTION, EXTRACT_MAX_TOKENS, EXTRACT_SYSTEM, EXTRACT_TOOL } from '../../activities/invoice/prompts';
import { ProviderFileMissingError } from '../../common/errors';
import { createProviderFiles, type ProviderFiles } from '../../gateway/files/provider-files';
import type { ToolCallRequest } from '../../gateway/model-call';
import { createAnthropicClient, createModelGateway } from '../../gateway/model-gateway';
import { createLogger } from '../../lib/logger';
import { filesApiRemover } from '../../lib/provider-files/files-api-remover';
import { deleteJobProviderFiles, providerFileKeys } from '../../lib/provider-files/job-provider-files';
import { startSimulator, type RunningSimulator } from '../../local/simulator/server';
import assert from '../support/assert';
import { memoryStore, type MemoryStore } from '../support/memory-store';
import { mixedPdfOf } from '../support/scans';
import { localTestConfig } from '../support/test-credentials';

const JOB = { tenantId: 'test', jobId: 'invoice:test:files' };

let sim: RunningSimulator;
let files: ProviderFiles;
let store: MemoryStore;
let scanBytes: Buffer;
let reads: number;

const simGet = async <T>(path: string): Promise<T> => (await (await fetch(`${sim.url}${path}`, { headers: { 'x-api-key': 'k', 'anthropic-beta': 'files-api-2025-04-14' } })).json()) as T;
const fileIds = async (): Promise<string[]> => (await simGet<{ data: Array<{ id: string }> }>('/v1/files?limit=1000')).data.map((file) => file.id);
const uploads = async (): Promise<number> => (await simGet<{ fileUploads: number }>('/_sim/request-bytes')).fileUploads;
/** The worker dies between the upload and the record of its id: the record's second write fails. */
const diesAfterUpload = () => {
  let writes = 0;
  store.failNextPut((key) => key.startsWith(providerFileKeys.root) && ++writes === 2);
};
const scan = () => ({ key: 'inputs/test/scan', mediaType: 'application/pdf' as const, pages: 2, read: async () => (reads++, scanBytes) });

function extractCall(documentMedia: ToolCallRequest['documentMedia']): ToolCallRequest {
  return {
    jobId: JOB.jobId,
    priority: 'interactive',
    model: 'claude-sonnet-4-6',
    system: EXTRACT_SYSTEM,
    documentText: '',
    ...(documentMedia ? { documentMedia } : {}),
    instruction: EXTRACT_INSTRUCTION,
    tool: EXTRACT_TOOL,
    maxTokens: EXTRACT_MAX_TOKENS,
  };
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, latencyBaseMs: 0, latencyPerOutputTokenMs: 0 });
  scanBytes = await mixedPdfOf(['scan', 'scan']);
  files = createProviderFiles(createAnthropicClient(localTestConfig({ ANTHROPIC_BASE_URL: sim.url }).anthropic));
});
afterAll(async () => sim.close());
beforeEach(async () => {
  await fetch(`${sim.url}/_sim/reset`, { method: 'POST' });
  store = memoryStore();
  reads = 0;
});

describe('a scan uploaded once per job', () => {
  test('when a step asks for the same scan again (a retry, the next step), then it is uploaded once and named by the same id', async () => {
    const first = await scanAsProviderFile({ store, files }, JOB, scan());
    const again = await scanAsProviderFile({ store, files }, JOB, scan());
    assert.equal(again.fileId, first.fileId);
    assert.equal(await uploads(), 1);
    assert.equal(reads, 1);
    assert.deepEqual(await fileIds(), [first.fileId]);
    assert.equal(first.sizeBytes, scanBytes.length);
  });

  test('when the worker died after the upload but before its record, then the retry finds the file by its name instead of uploading again', async () => {
    diesAfterUpload();
    await assert.rejects(scanAsProviderFile({ store, files }, JOB, scan()), /the worker died here/);
    assert.equal(await uploads(), 1);
    const retried = await scanAsProviderFile({ store, files }, JOB, scan());
    assert.equal(await uploads(), 1);
    assert.deepEqual(await fileIds(), [retried.fileId]);
  });

  test('when another job reads the same scan, then it has its own upload (each job deletes only its own)', async () => {
    const mine = await scanAsProviderFile({ store, files }, JOB, scan());
    const theirs = await scanAsProviderFile({ store, files }, { tenantId: 'test', jobId: 'invoice:test:other' }, scan());
    assert.notEqual(theirs.fileId, mine.fileId);
    await deleteJobProviderFiles({ store, files }, JOB);
    assert.deepEqual(await fileIds(), [theirs.fileId]);
  });
});

describe('the job ends', () => {
  test('when the job’s files are deleted, then the provider holds none of them and no record is left; deleting again is harmless', async () => {
    await scanAsProviderFile({ store, files }, JOB, scan());
    await scanAsProviderFile({ store, files }, JOB, { ...scan(), key: 'documents/test/p2.pdf' });
    assert.equal((await fileIds()).length, 2);
    assert.deepEqual(await deleteJobProviderFiles({ store, files }, JOB), { deleted: 2 });
    assert.deepEqual(await fileIds(), []);
    assert.equal([...store.objects.keys()].filter((key) => key.startsWith(providerFileKeys.root)).length, 0);
    assert.deepEqual(await deleteJobProviderFiles({ store, files }, JOB), { deleted: 0 });
  });

  test('when an upload was cut short before its id was recorded, then the cleanup still finds and deletes the file', async () => {
    diesAfterUpload();
    await assert.rejects(scanAsProviderFile({ store, files }, JOB, scan()));
    assert.equal((await fileIds()).length, 1);
    assert.deepEqual(await deleteJobProviderFiles({ store, files }, JOB), { deleted: 1 });
    assert.deepEqual(await fileIds(), []);
  });

  test('when the API erases a job (plain HTTP, no SDK), then its files go through the same bookkeeping', async () => {
    await scanAsProviderFile({ store, files }, JOB, scan());
    const remover = filesApiRemover(localTestConfig({ ANTHROPIC_BASE_URL: sim.url }).anthropic);
    assert.deepEqual(await deleteJobProviderFiles({ store, files: remover }, JOB), { deleted: 1 });
    assert.deepEqual(await fileIds(), []);
  });
});

describe('calls that name an uploaded scan', () => {
  const gateway = () => {
    const config = localTestConfig({ ANTHROPIC_BASE_URL: sim.url });
    return createModelGateway({ client: createAnthropicClient(config.anthropic), prices: config.anthropic.prices, log: createLogger('test', 'silent') });
  };

  test('when a call names the file, then the provider reads the scan and the request carries its id, not its bytes', async () => {
    const messageBytes = async () => (await simGet<{ messages: number }>('/_sim/request-bytes')).messages;
    const media = await scanAsProviderFile({ store, files }, JOB, scan());
    const atStart = await messageBytes();
    const byId = await gateway().callTool(extractCall(media));
    const afterById = await messageBytes();
    const inline = await gateway().callTool(extractCall({ mediaType: 'application/pdf', base64: scanBytes.toString('base64'), pages: 2 }));
    const afterInline = await messageBytes();
    // The provider read the same pages either way (tokens), while only the inline request carried them.
    assert.equal(byId.usage.inputTokens, inline.usage.inputTokens);
    assert.ok(afterInline - afterById - (afterById - atStart) >= scanBytes.length, `by id ${afterById - atStart} bytes, inline ${afterInline - afterById}`);
  });

  test('when the file is gone, then the call fails as ProviderFileMissingError (retryable), not as an invalid request', async () => {
    const media = await scanAsProviderFile({ store, files }, JOB, scan());
    await files.delete(media.fileId);
    const failure = await gateway()
      .callTool(extractCall(media))
      .then(() => undefined, (error: unknown) => error);
    assert.ok(failure instanceof ProviderFileMissingError, String(failure));
    assert.equal(failure.retryable, true);
  });

  test('when a request names a file without the beta header, then the simulator refuses it as the provider does (400)', async () => {
    const media = await scanAsProviderFile({ store, files }, JOB, scan());
    const response = await fetch(`${sim.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-sonnet-4-6',
        max_tokens: 100,
        messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'file', file_id: media.fileId } }, { type: 'text', text: 'read' }] }],
      }),
    });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: { type: string } }).error.type, 'invalid_request_error');
  });

  test('when a deleted or unknown file id is asked for, then the Files API answers 404', async () => {
    const media = await scanAsProviderFile({ store, files }, JOB, scan());
    await files.delete(media.fileId);
    const response = await fetch(`${sim.url}/v1/files/${media.fileId}`, { headers: { 'x-api-key': 'k', 'anthropic-beta': 'files-api-2025-04-14' } });
    assert.equal(response.status, 404);
  });
});
