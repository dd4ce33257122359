import assert from '../support/assert';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import { overallConfidence, REQUIRED_INVOICE_FIELDS, type InvoiceExtraction } from '../../common/invoice';
import { classifyDocument } from '../../local/simulator/reader/classify';
import { extractionSchemaErrors } from '../../local/simulator/reader/output-schemas';
import { readInvoice } from '../../local/simulator/reader/read-invoice';
import { answerForScan } from '../../local/simulator/model';
import { generateSamples, type SampleFile } from '../../local/samples/generate';
import { readDocumentText } from '../../local/samples/read-document-text';

/** Slowlane's review threshold: below it a person checks the fields. */
const REVIEW_THRESHOLD = 0.9;

async function sha256(path: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path))
    .digest('hex');
}

describe('the demo samples', () => {
  let first: string;
  let second: string;
  let samples: SampleFile[];

  beforeAll(async () => {
    first = await mkdtemp(join(tmpdir(), 'slowlane-samples-'));
    second = await mkdtemp(join(tmpdir(), 'slowlane-samples-'));
    samples = await generateSamples(first);
  });
  afterAll(async () => {
    await rm(first, { recursive: true, force: true });
    await rm(second, { recursive: true, force: true });
  });

  test('when generated, then there are clean, ambiguous, plain-text and non-invoice samples', () => {
    const count = (outcome: SampleFile['expectedOutcome']) =>
      samples.filter((sample) => sample.expectedOutcome === outcome).length;
    assert.ok(count('posted') >= 4, 'clean invoices');
    assert.ok(count('awaiting_review') >= 2, 'ambiguous invoices');
    assert.equal(count('rejected'), 1);
    assert.ok(samples.some((sample) => sample.fileName.endsWith('.txt')));
    assert.equal(new Set(samples.map((sample) => sample.fileName)).size, samples.length);
  });

  test('when generated twice, then every file has the same bytes', async () => {
    const again = await generateSamples(second);
    for (const [index, sample] of samples.entries()) {
      assert.equal(await sha256(again[index]?.path ?? ''), await sha256(sample.path), sample.fileName);
    }
  });

  test('when read as Slowlane reads them, then each sample gets its expected outcome', async () => {
    for (const sample of samples) {
      if (sample.fileName.endsWith('.png')) {
        // A scan has no text: the model is shown the image, and the simulator's answer to any scan is unsure.
        assert.equal(sample.expectedOutcome, 'awaiting_review');
        const classified = answerForScan('classify_document');
        assert.ok(classified.kind === 'tool_use' && (classified.input as { documentType: string }).documentType === 'invoice');
        const extracted = answerForScan('record_invoice');
        assert.ok(extracted.kind === 'tool_use' && overallConfidence(extracted.input as InvoiceExtraction) < REVIEW_THRESHOLD);
        continue;
      }
      const text = await readDocumentText(sample.path);
      const classification = classifyDocument(text);
      if (sample.expectedOutcome === 'rejected') {
        assert.equal(classification.documentType, 'other', sample.fileName);
        continue;
      }
      assert.equal(classification.documentType, 'invoice', sample.fileName);
      assert.ok(classification.confidence >= REVIEW_THRESHOLD, sample.fileName);
      const extraction = readInvoice(text);
      assert.deepEqual(extractionSchemaErrors(extraction), [], sample.fileName);
      const overall = overallConfidence(extraction);
      if (sample.expectedOutcome === 'posted') {
        for (const field of REQUIRED_INVOICE_FIELDS) {
          assert.ok(
            extraction.confidence[field] >= 0.95,
            `${sample.fileName}: ${field} ${extraction.confidence[field]}`,
          );
        }
      } else {
        assert.ok(overall < REVIEW_THRESHOLD, `${sample.fileName}: overall ${overall}`);
      }
    }
  });

  test('when a clean sample posts, then its fields are the values printed on it', async () => {
    const german = samples.find((sample) => sample.fileName === 'rechnung-krause-eur.pdf');
    assert.ok(german);
    const { invoice } = readInvoice(await readDocumentText(german.path));
    assert.deepEqual(
      { ...invoice, lineItems: invoice.lineItems.length },
      {
        invoiceNumber: 'RE-2024-0042',
        issuer: 'Werkzeughandel Krause GmbH',
        issueDate: '2024-03-15',
        dueDate: '2024-04-14',
        currency: 'EUR',
        totalAmount: 357,
        subtotalAmount: 300,
        taxAmount: 57,
        lineItems: 3,
      },
    );
  });
});
