import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { apiUrl, getJob, submit, waitForJob } from '../support/api-client';
import { clearScreenshots, launchChromium, openReviewer, saveScreenshot } from '../support/reviewer-browser';
import { sampleWith } from '../support/samples';
import { pngOf } from '../support/scans';

const jobUrl = (jobId: string) => `${apiUrl()}/review#/jobs/${encodeURIComponent(jobId)}`;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlap(a: Box, b: Box): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

/**
 * The share of a screenshot's pixels tinted like the highlight (yellow: red and green well above blue), decoded by
 * the page's own canvas so the test needs no image library.
 */
async function yellowShare(page: Page, clip: Box): Promise<number> {
  const png = (await page.screenshot({ clip })).toString('base64');
  // Runs in the page (a string, so this file needs no DOM types): decode, draw, count.
  return page.evaluate<number>(`(async () => {
    const image = new Image();
    image.src = 'data:image/png;base64,${png}';
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    let yellow = 0;
    for (let at = 0; at < pixels.length; at += 4) {
      const red = pixels[at], green = pixels[at + 1], blue = pixels[at + 2];
      if (red > 180 && green > 150 && blue < red - 60) yellow++;
    }
    return yellow / (pixels.length / 4);
  })()`);
}

describe('where each field came from, on the reviewer page in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    await clearScreenshots('reviewer-citation');
    browser = await launchChromium();
  });
  afterAll(async () => browser.close());

  test('when a cited field is focused, then its passage is highlighted over the text the PDF page prints, and an uncited field is flagged', async () => {
    const sample = await sampleWith('awaiting_review');
    const { body } = await submit(sample.bytes, { fileName: `${randomUUID().slice(0, 8)}-${sample.fileName}` });
    const jobId = body.jobId as string;
    await waitForJob(jobId, ['awaiting_review']);
    const job = (await getJob(jobId)).body as {
      extraction?: { invoice: Record<string, unknown>; citations?: { textLayer: boolean; fields: Record<string, { citedText: string; startChar?: number }> } };
    };
    const citations = job.extraction?.citations;
    assert.equal(citations?.textLayer, true, 'a PDF with text is cited');
    const invoiceNumber = String(job.extraction?.invoice.invoiceNumber);
    const cited = citations?.fields.invoiceNumber;
    assert.ok(cited, `the invoice number is cited: ${JSON.stringify(citations)}`);
    assert.ok(cited.citedText.includes(invoiceNumber), `the passage shows the value: ${cited.citedText}`);

    const { context, page, problems } = await openReviewer(browser);
    try {
      await page.goto(jobUrl(jobId));
      const runs = page.locator('[data-testid="text-layer"] span');
      await runs.first().waitFor({ timeout: 20_000 });
      // Where the page prints the value, found by its text alone (not by what the page highlights).
      const printed = runs.filter({ hasText: invoiceNumber }).first();
      await printed.scrollIntoViewIfNeeded();
      const before = await printed.boundingBox();
      assert.ok(before, 'the value is in the text layer');
      assert.equal(await page.getByTestId('citation-highlight').count(), 0, 'nothing is highlighted before a field is focused');
      const plain = await yellowShare(page, before);

      await page.locator('#field-invoiceNumber').focus();
      const highlights = page.getByTestId('citation-highlight');
      await highlights.first().waitFor();
      const textBox = await printed.boundingBox();
      assert.ok(textBox);
      const boxes = (await highlights.evaluateAll((marks) => marks.map((mark) => mark.getBoundingClientRect().toJSON() as Box))) as Box[];
      const covered = Math.max(...boxes.map((box) => overlap(box, textBox)));
      assert.ok(covered >= 0.8 * textBox.width * textBox.height, `a highlight covers the printed value: ${JSON.stringify({ textBox, boxes })}`);
      const lit = await yellowShare(page, textBox);
      assert.ok(lit > 0.3 && lit > plain + 0.3, `the screenshot shows the highlight over the value (${plain.toFixed(2)} → ${lit.toFixed(2)} tinted)`);
      await saveScreenshot(page, 'reviewer-citation');

      // A field the model could not cite (this sample prints no due date) says so; a cited one does not.
      const uncited = Object.keys(job.extraction?.invoice ?? {}).filter((name) => citations?.fields[name] === undefined);
      assert.ok(uncited.length > 0, 'the sample has an uncited field');
      for (const name of uncited) assert.equal(await page.locator(`[data-field="${name}"] [data-testid="no-citation"]`).count(), 1, `${name} is flagged`);
      assert.equal(await page.locator('[data-field="invoiceNumber"] [data-testid="no-citation"]').count(), 0);

      // Focusing an uncited field clears the highlight rather than leave another field's passage lit.
      const firstUncited = uncited.find((name) => name !== 'lineItems');
      if (firstUncited) {
        await page.locator(`#field-${firstUncited}`).focus();
        await page.waitForFunction(`document.querySelectorAll('[data-testid="citation-highlight"]').length === 0`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('when a scan without a text layer waits for review, then the page says it has no citations instead of flagging every field', async () => {
    const { body } = await submit(new Uint8Array(pngOf(480, 320)), { fileName: `${randomUUID().slice(0, 8)}-scan.png` });
    const jobId = body.jobId as string;
    await waitForJob(jobId, ['awaiting_review']);
    const { context, page, problems } = await openReviewer(browser);
    try {
      await page.goto(jobUrl(jobId));
      await page.getByTestId('no-text-layer').waitFor({ timeout: 20_000 });
      assert.match((await page.getByTestId('no-text-layer').textContent()) ?? '', /No text layer: no citations/);
      assert.equal(await page.getByTestId('no-citation').count(), 0, 'no field is flagged: nothing could be cited');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
