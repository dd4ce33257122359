import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { postLedgerEntry, sampleEntryRequest, startTemporaryLedger, type TemporaryLedger } from '../../local/ledger/testing';

interface ErrorBody {
  error: { code: string; message: string };
}

async function expectError(response: Response, status: number, code: string): Promise<string> {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = (await response.json()) as ErrorBody;
  assert.equal(body.error.code, code);
  assert.ok(body.error.message.length > 10, 'the message says what to fix');
  return body.error.message;
}

describe('ledger: every client error has a stable code', () => {
  let ledger: TemporaryLedger;
  const post = (init: { headers?: Record<string, string>; body?: string }): Promise<Response> =>
    fetch(`${ledger.url}/entries`, { method: 'POST', ...init });
  const jsonBody = JSON.stringify(sampleEntryRequest());

  beforeAll(async () => {
    ledger = await startTemporaryLedger();
  });
  afterAll(async () => {
    await ledger.dispose();
  });

  test('when the Idempotency-Key header is missing, then 400 missing_idempotency_key', async () => {
    const response = await post({ headers: { 'content-type': 'application/json' }, body: jsonBody });
    await expectError(response, 400, 'missing_idempotency_key');
  });

  test('when the Idempotency-Key has a space, a slash or 201 characters, then 400 invalid_idempotency_key', async () => {
    for (const key of ['has space', 'a/b', 'k'.repeat(201)]) {
      const response = await postLedgerEntry({ url: ledger.url, idempotencyKey: key, body: sampleEntryRequest() });
      await expectError(response, 400, 'invalid_idempotency_key');
    }
  });

  test('when the Idempotency-Key is 200 allowed characters, then it is accepted', async () => {
    const key = `${'A-z0.9_:~'.repeat(22)}xy`;
    assert.equal(key.length, 200);
    const response = await postLedgerEntry({ url: ledger.url, idempotencyKey: key, body: sampleEntryRequest() });
    assert.equal(response.status, 201);
  });

  test('when the body is not JSON, then 400 invalid_json', async () => {
    const response = await post({
      headers: { 'content-type': 'application/json', 'idempotency-key': 'bad-json' },
      body: '{"tenantId": ',
    });
    await expectError(response, 400, 'invalid_json');
  });

  test('when the body misses fields or has wrong types, then 400 invalid_body naming the fields', async () => {
    const missing = await postLedgerEntry({
      url: ledger.url,
      idempotencyKey: 'bad-body-1',
      body: { tenantId: 'demo' },
    });
    assert.match(await expectError(missing, 400, 'invalid_body'), /body is missing jobId, invoice/);

    const invoice = { ...sampleEntryRequest().invoice, totalAmount: '119', currency: 'euro' };
    const wrongTypes = await postLedgerEntry({
      url: ledger.url,
      idempotencyKey: 'bad-body-2',
      body: sampleEntryRequest({ invoice: invoice as unknown as ReturnType<typeof sampleEntryRequest>['invoice'] }),
    });
    const message = await expectError(wrongTypes, 400, 'invalid_body');
    assert.match(message, /invoice\.totalAmount must be number/);
    assert.match(message, /invoice\.currency must match pattern/);

    const extraField = await postLedgerEntry({
      url: ledger.url,
      idempotencyKey: 'bad-body-3',
      body: { ...sampleEntryRequest(), amount: 5 },
    });
    assert.match(await expectError(extraField, 400, 'invalid_body'), /unknown field amount/);

    const noBody = await post({ headers: { 'content-type': 'application/json', 'idempotency-key': 'bad-body-4' } });
    await expectError(noBody, 400, 'invalid_body');

    const entries = (await (await fetch(`${ledger.url}/entries?tenantId=demo`)).json()) as { entries: unknown[] };
    assert.equal(entries.entries.length, 1, 'only the valid 200-character-key post above was written');
  });

  test('when the body is not sent as JSON, then 415 unsupported_media_type', async () => {
    const textPlain = await post({
      headers: { 'content-type': 'text/plain', 'idempotency-key': 'media-1' },
      body: jsonBody,
    });
    await expectError(textPlain, 415, 'unsupported_media_type');
    const latin1 = await post({
      headers: { 'content-type': 'application/json; charset=latin1', 'idempotency-key': 'media-2' },
      body: jsonBody,
    });
    await expectError(latin1, 415, 'unsupported_media_type');
  });

  test('when the body is larger than 1 MB, then 413 payload_too_large', async () => {
    const huge = JSON.stringify({ ...sampleEntryRequest(), padding: 'x'.repeat(1024 * 1024) });
    const response = await post({
      headers: { 'content-type': 'application/json', 'idempotency-key': 'huge' },
      body: huge,
    });
    await expectError(response, 413, 'payload_too_large');
  });

  test('when an entry id does not exist, then 404 entry_not_found', async () => {
    await expectError(await fetch(`${ledger.url}/entries/led_missing`), 404, 'entry_not_found');
  });

  test('when a route does not exist, then 404 route_not_found', async () => {
    await expectError(await fetch(`${ledger.url}/nope`), 404, 'route_not_found');
    await expectError(await fetch(`${ledger.url}/entries`, { method: 'PUT' }), 404, 'route_not_found');
  });

  test('when a list filter is unknown or repeated, then 400 invalid_query', async () => {
    await expectError(await fetch(`${ledger.url}/entries?tenant=demo`), 400, 'invalid_query');
    await expectError(await fetch(`${ledger.url}/entries?jobId=a&jobId=b`), 400, 'invalid_query');
  });

  test('when a path is not valid percent-encoding, then 400 bad_request', async () => {
    await expectError(await fetch(`${ledger.url}/entries/%E0`), 400, 'bad_request');
  });

  test('when a fault is malformed, then 400 invalid_fault', async () => {
    const armFault = (body: unknown): Promise<Response> =>
      fetch(`${ledger.url}/_ledger/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const body of [
      {},
      { kind: 'explode' },
      { kind: 'slow', times: 0 },
      { kind: 'slow', delayMs: -1 },
      { kind: 'unavailable', delayMs: 10 },
      { kind: 'unavailable', failWith: 'http_500' },
      { kind: 'commit_then_fail', failWith: 'silence' },
      { kind: 'unavailable', extra: true },
    ]) {
      await expectError(await armFault(body), 400, 'invalid_fault');
    }
    const armed = (await (await fetch(`${ledger.url}/_ledger/faults`)).json()) as { fault: unknown };
    assert.equal(armed.fault, null);
  });
});
