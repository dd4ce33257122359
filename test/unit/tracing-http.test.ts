import assert from '../support/assert';
import type { AddressInfo } from 'node:net';
import { describe, test } from '@jest/globals';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import express from 'express';
import { traceRequests } from '../../lib/tracing-http';

describe('request spans', () => {
  test('when the client leaves a response before it finishes, then its span still ends, named by the route', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const app = express();
    app.use(traceRequests(provider.getTracer('test')));
    app.get('/streams/:id', (_req, res) => {
      res.write('first\n');
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const client = new AbortController();
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/streams/42`, { signal: client.signal });
      await response.body?.getReader().read();
      client.abort();
      for (let i = 0; i < 100 && exporter.getFinishedSpans().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(
        exporter.getFinishedSpans().map((span) => span.name),
        ['GET /streams/:id'],
      );
    } finally {
      server.closeAllConnections();
      server.close();
      await provider.shutdown();
    }
  });
});
