import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { IMAGE_MAX_BYTES } from '../../common/model-media';
import { apiUrl, demo, submit, waitForJob } from '../support/api-client';
import { pngOf, scannedPdfOf } from '../support/scans';

/** Scans through the real stack: the model (the simulator) reads them as image and document blocks. */
describe('scanned documents', () => {
  async function documentOf(jobId: string): Promise<{ contentType: string | null; bytes: Buffer }> {
    const response = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}/document`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
    assert.equal(response.status, 200);
    return { contentType: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
  }

  test('when a PNG invoice scan is uploaded, then the job reaches review with low confidence and the scan is served as a PNG', async () => {
    const png = pngOf(400, 300);
    const { status, body } = await submit(new Uint8Array(png), { fileName: 'scan.png' });
    assert.equal(status, 202, JSON.stringify(body));
    const job = await waitForJob(body.jobId as string, ['awaiting_review', 'posted', 'failed', 'rejected']);
    assert.equal(job.status, 'awaiting_review', JSON.stringify(job));
    assert.ok((job.confidence ?? 1) < 0.5, `confidence ${job.confidence}`);
    const served = await documentOf(body.jobId as string);
    assert.equal(served.contentType, 'image/png');
    assert.ok(served.bytes.equals(png));
  });

  test('when a PDF without a text layer is uploaded, then it is no InvalidDocumentError: the job reaches review with low confidence', async () => {
    const { status, body } = await submit(new Uint8Array(await scannedPdfOf(2)), { fileName: 'scan.pdf' });
    assert.equal(status, 202, JSON.stringify(body));
    const job = await waitForJob(body.jobId as string, ['awaiting_review', 'posted', 'failed', 'rejected']);
    assert.equal(job.status, 'awaiting_review', JSON.stringify(job));
    assert.ok((job.confidence ?? 1) < 0.5, `confidence ${job.confidence}`);
  });

  test('when an image is larger than the model takes (5 MB of base64), then 413 names the byte limit', async () => {
    const tooBig = Buffer.concat([pngOf(2, 2), Buffer.alloc(IMAGE_MAX_BYTES)]);
    const { status, body } = await submit(new Uint8Array(tooBig), { fileName: 'big.png' });
    assert.equal(status, 413, JSON.stringify(body));
    assert.equal(body.error?.code, 'payload_too_large');
    assert.equal(body.error?.details?.limitBytes, IMAGE_MAX_BYTES);
  });

  test('when an image is wider than 8000 px, then 413 names the pixel limit', async () => {
    const { status, body } = await submit(new Uint8Array(pngOf(8001, 1)), { fileName: 'wide.png' });
    assert.equal(status, 413, JSON.stringify(body));
    assert.equal(body.error?.details?.limitPixels, 8000);
  });

  test('when the image is a GIF, then 415: the invoice type takes PNG and JPEG scans only', async () => {
    const gif = Buffer.from('GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000;', 'latin1');
    const { status, body } = await submit(new Uint8Array(gif), { fileName: 'scan.gif' });
    assert.equal(status, 415, JSON.stringify(body));
  });
});
