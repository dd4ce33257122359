import assert from '../support/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { answerUnparsableRequest } from '../../api/server';

describe('requests the HTTP parser refuses', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('routed'));
    server.on('clientError', answerUnparsableRequest);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test('when the URL and headers pass 16 KB, then the answer is a 431 in the API error shape', async () => {
    const response = await fetch(`${url}/jobs?q=${'a'.repeat(20_000)}`);
    assert.equal(response.status, 431);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    const body = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'request_header_fields_too_large');
  });

  test('when the request is within the limit, then it reaches the routes', async () => {
    const response = await fetch(`${url}/jobs?q=${'a'.repeat(1_000)}`);
    assert.equal(await response.text(), 'routed');
  });
});
