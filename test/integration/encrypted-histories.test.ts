import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { describe, test } from '@jest/globals';
import { Connection } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { EncryptionCodec, isEncrypted } from '../../lib/payload-codec/encryption-codec';
import { keyProviderFor } from '../../lib/payload-codec/data-converter';
import { apiUrl, demo, submit, waitForJob } from '../support/api-client';
import { sampleWith } from '../support/samples';
import { testCodecSettings } from '../support/test-codec';
import { testEnv } from '../support/test-env';

/**
 * Every payload inside a protobuf message (history events, memo, user metadata), found by its shape. Headers and
 * search attributes are left out: the SDK never sends them through the codec (trace context; the server indexes
 * search attributes), and the search of the raw bytes above covers them.
 */
function payloadsIn(value: unknown, found: Payload[] = []): Payload[] {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return found;
  const candidate = value as { metadata?: unknown; data?: unknown };
  if (candidate.data instanceof Uint8Array && typeof candidate.metadata === 'object' && candidate.metadata !== null) {
    found.push(value as Payload);
    return found;
  }
  for (const [key, child] of Object.entries(value)) if (key !== 'header' && key !== 'searchAttributes') payloadsIn(child, found);
  return found;
}

describe('payloads are ciphertext on the Temporal server', () => {
  test('when an invoice job has run, then its raw history, memo, search attributes and summaries hold none of its content; with the codec they read', async () => {
    const sample = await sampleWith('posted');
    const fileName = `confidential-${randomUUID()}.txt`;
    const submitted = await submit(sample.bytes, { fileName });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    const done = await waitForJob(jobId, ['posted', 'awaiting_review', 'failed', 'rejected']);
    assert.equal(done.status, 'posted', JSON.stringify(done));
    const fields = done.result && 'fields' in done.result ? done.result.fields : undefined;
    assert.ok(fields?.invoiceNumber && fields.issuer && typeof fields.totalAmount === 'number');
    const secrets = [fields.invoiceNumber, fields.issuer, String(fields.totalAmount), fileName];
    // The raw bytes are searched only for strings too long to occur there by chance: a three-digit total turns up in
    // run ids and task tokens. Every payload is checked encrypted below, and the total is among what the codec reads.
    const distinctive = secrets.filter((secret) => secret.length >= 8);
    assert.ok(distinctive.length >= 2, `distinctive content to search for: ${JSON.stringify(secrets)}`);

    // A plain connection: no codec, what anyone with access to the server (or its database) sees.
    const { temporalAddress, temporalNamespace } = testEnv();
    assert.ok(temporalAddress, 'needs the stack that `npm test` starts');
    const connection = await Connection.connect({ address: temporalAddress });
    try {
      const execution = { workflowId: jobId };
      const { history } = await connection.workflowService.getWorkflowExecutionHistory({ namespace: temporalNamespace, execution });
      const description = await connection.workflowService.describeWorkflowExecution({ namespace: temporalNamespace, execution });
      const raw = Buffer.concat([
        temporal.api.history.v1.History.encode(history ?? {}).finish(),
        temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse.encode(description).finish(),
      ]).toString('latin1');
      for (const secret of distinctive) assert.ok(!raw.includes(secret), `${secret} is readable on the server`);

      // A patch marker's details are the patch's name, written by the SDK's core without the codec: code, not content.
      const events = (history?.events ?? []).filter((event) => event.markerRecordedEventAttributes?.markerName !== 'core_patch');
      const payloads = [...payloadsIn(events), ...payloadsIn(description.workflowExecutionInfo?.memo)];
      assert.ok(payloads.length > 10, `the history holds payloads (${payloads.length})`);
      const summaries = payloadsIn(history?.events?.map((event) => event.userMetadata));
      assert.ok(summaries.length > 0, 'the activities carry summaries');
      const plaintext = payloads.filter((payload) => !isEncrypted(payload));
      const encodings = plaintext.map((payload) => Buffer.from(payload.metadata?.encoding ?? []).toString());
      assert.deepEqual(encodings, [], 'every payload but headers is encrypted');

      // The same bytes through the codec: the content is there, so the search above could have found it.
      const keys = keyProviderFor(testCodecSettings());
      assert.ok(keys);
      const decoded = await new EncryptionCodec(keys, { acceptPlaintext: false }).decode(payloads);
      const readable = decoded.map((payload) => Buffer.from(payload.data ?? []).toString('utf8')).join('\n');
      for (const secret of secrets) assert.ok(readable.includes(secret), `${secret} decodes with the codec`);
    } finally {
      await connection.close();
    }

    // The API lists the job with its name read through the codec (visibility answers with the memo as stored).
    let listed: { jobId: string; fileName?: string } | undefined;
    for (let attempt = 0; attempt < 40 && !listed; attempt++) {
      const response = await fetch(`${apiUrl()}/jobs?status=posted&pageSize=100`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
      assert.equal(response.status, 200, await response.clone().text());
      const page = (await response.json()) as { jobs: Array<{ jobId: string; fileName?: string }> };
      listed = page.jobs.find((job) => job.jobId === jobId);
      if (!listed) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.equal(listed?.fileName, fileName, 'GET /jobs shows the file name decoded');
  });
});
