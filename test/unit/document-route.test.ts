import assert from '../support/assert';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { localTestConfig, testTenant } from '../support/test-credentials';
import pino from 'pino';
import type { JobsService } from '../../api/jobs-service';
import { type RunningApi, startApiServer } from '../../api/server';
import { memoryAuditTrail } from '../support/memory-audit';

const DEMO = testTenant('demo');

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('GET /jobs/:id/document: streaming the upload from the object store', () => {
  const logged: Array<{ level: number; msg: string; tenantId?: string; jobId?: string }> = [];
  let failStore = false;
  let api: RunningApi;
  beforeAll(async () => {
    // A document that keeps coming, or whose store connection breaks after the first chunk.
    const body = () =>
      Readable.from(
        (async function* () {
          yield Buffer.from('%PDF-1.4\n');
          for (;;) {
            await pause(5);
            if (failStore) throw new Error('store connection reset');
            yield Buffer.alloc(16 * 1024, 0x20);
          }
        })(),
      );
    const jobs = { openDocument: async () => ({ body: body(), contentType: 'application/pdf', fileName: 'a.pdf' }) };
    const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as { level: number; msg: string }) });
    api = await startApiServer({ config: localTestConfig(), jobs: jobs as unknown as JobsService, log, ready: async () => true, audit: memoryAuditTrail() }, { host: '127.0.0.1', port: 0 });
  });
  afterAll(() => api?.close());

  const download = async () => {
    const client = new AbortController();
    const response = await fetch(`${api.url}/jobs/invoice%3Ademo%3Ak/document`, { headers: { authorization: `Bearer ${DEMO.apiKey}` }, signal: client.signal });
    assert.equal(response.status, 200);
    const reader = response.body?.getReader();
    assert.ok(reader);
    await reader.read();
    return { reader, leave: () => client.abort() };
  };

  test('when the reader leaves before the document has arrived, then no failure is logged', async () => {
    const { leave } = await download();
    leave();
    await pause(200);
    assert.deepEqual(logged.filter((line) => line.level >= 50), []);
  });

  test('when the object store fails mid-document, then the failure is logged', async () => {
    failStore = true;
    const { reader } = await download();
    await assert.rejects(async () => {
      for (;;) if ((await reader.read()).done) return;
    });
    for (let i = 0; i < 100 && !logged.some((line) => line.level >= 50); i++) await pause(10);
    assert.deepEqual(
      logged.filter((line) => line.level >= 50).map((line) => line.msg),
      ['request failed'],
    );
    const [failure] = logged.filter((line) => line.level >= 50);
    assert.equal(failure?.tenantId, 'demo', 'the line names the tenant');
    assert.equal(failure?.jobId, 'invoice:demo:k', 'and the job');
  });
});
