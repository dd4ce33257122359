import assert from '../support/assert';
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, describe, test } from '@jest/globals';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { apiUrl, demo, invoiceResult, submit, waitForJob } from '../support/api-client';
import { markedInvoice } from '../support/operations';
import { testEnv } from '../support/test-env';

/** The bucket as anyone with the store's credentials sees it: the AWS SDK alone, no product code in between. */
const productEnv = testEnv().productEnv ?? {};
const bucket = productEnv.S3_BUCKET ?? 'slowlane';
const raw = new S3Client({
  region: productEnv.S3_REGION ?? 'us-east-1',
  endpoint: testEnv().s3Endpoint ?? productEnv.S3_ENDPOINT,
  forcePathStyle: true,
  credentials: { accessKeyId: productEnv.S3_ACCESS_KEY_ID ?? '', secretAccessKey: productEnv.S3_SECRET_ACCESS_KEY ?? '' },
});

afterAll(() => raw.destroy());

/** The stored bytes of every object whose key starts with `prefix`: the test does not assume the product's key suffixes. */
async function rawObjects(prefix: string): Promise<Buffer[]> {
  const page = await raw.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return Promise.all((page.Contents ?? []).map((object) => rawObject(object.Key as string)));
}

async function rawObject(key: string): Promise<Buffer> {
  const response = await raw.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await (response.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
}

describe('objects at rest in S3', () => {
  test('when an invoice is submitted through the API, then its upload and text rest in the bucket without plaintext, and the job reads them as usual', async () => {
    const marker = `at-rest-${randomUUID()}`;
    const invoice = await markedInvoice(marker);
    const submitted = await submit(invoice.bytes, { fileName: invoice.fileName });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    const done = await waitForJob(jobId, ['posted', 'awaiting_review', 'failed', 'rejected']);
    assert.equal(done.status, 'posted', JSON.stringify(done));
    assert.ok(invoiceResult(done)?.fields, 'the fields were extracted from the sealed text');

    const sha256 = createHash('sha256').update(invoice.bytes).digest('hex');
    const uploads = await rawObjects(`inputs/demo/${sha256}`);
    const texts = await rawObjects(`texts/demo/${sha256}`);
    assert.equal(uploads.length, 1, 'the upload is stored under its content hash');
    assert.ok(texts.length >= 1, 'the extracted text is stored beside it');
    const plain = Buffer.from(invoice.bytes);
    const line = plain.toString('utf8').split('\n').find((candidate) => candidate.trim().length > 12) as string;
    for (const [name, stored] of [...uploads.map((bytes) => ['upload', bytes] as const), ...texts.map((bytes) => ['extracted text', bytes] as const)]) {
      assert.ok(stored.length > 0, `${name} is stored`);
      assert.ok(!stored.includes(marker), `${name}: the marker is not readable in the bucket`);
      assert.ok(!stored.includes(line.trim()), `${name}: the invoice's first line is not readable in the bucket`);
    }

    const document = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}/document`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
    assert.equal(document.status, 200);
    assert.equal(document.headers.get('content-length'), String(plain.length), 'the plaintext length, not the sealed one');
    assert.ok(Buffer.from(await document.arrayBuffer()).equals(plain), 'the API streams the upload back as it was sent');
  });
});
