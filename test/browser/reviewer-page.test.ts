import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { apiUrl, demo, getJob, ledgerEntries, rejectIfInReview, submit, submitJson, waitForJob, waitForReview } from '../support/api-client';
import { injectFault, markedInvoice } from '../support/operations';
import { greyOrder } from '../../local/samples/sample-orders';
import { clearScreenshots, fixInvalidFields, launchChromium, openReviewer, saveScreenshot } from '../support/reviewer-browser';
import { sampleWith } from '../support/samples';
import { pngOf } from '../support/scans';

/** Another person of the same tenant, with a token of their own. */
const secondReviewer = demo.reviewers[1] as (typeof demo.reviewers)[number];

/** A fresh job awaiting review, visible in the reviewer queue (visibility lags the workflow by a moment). */
async function jobAwaitingReview(pdf = true): Promise<string> {
  const sample = await sampleWith('awaiting_review', pdf);
  const { body } = await submit(sample.bytes, { fileName: `${randomUUID().slice(0, 8)}-${sample.fileName}` });
  const jobId = body.jobId as string;
  await waitForJob(jobId, ['awaiting_review']);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${apiUrl()}/jobs?status=awaiting_review&limit=200`, { headers: { authorization: `Bearer ${demo.reviewerToken}` } });
    const { jobs } = (await response.json()) as { jobs: Array<{ jobId: string }> };
    if (jobs.some((job) => job.jobId === jobId)) return jobId;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`job ${jobId} never showed up as awaiting_review in the list`);
}

const jobUrl = (jobId: string) => `${apiUrl()}/review#/jobs/${encodeURIComponent(jobId)}`;

describe('the reviewer page in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    // Screenshots of an earlier run must not pass for this run's.
    await clearScreenshots('reviewer-');
    browser = await launchChromium();
  });
  afterAll(async () => browser.close());

  test('when a reviewer opens the queue, edits a field and approves with the keyboard, then the ledger holds the edited value', async () => {
    const other = await jobAwaitingReview();
    const jobId = await jobAwaitingReview();
    const { context, page, problems } = await openReviewer(browser);
    try {
      // Both jobs are in the queue (that it refreshes by itself is the next test).
      const row = page.locator(`tr[data-job-id="${jobId}"]`);
      await row.waitFor({ timeout: 20_000 });
      await page.locator(`tr[data-job-id="${other}"]`).waitFor();
      assert.match((await row.locator('td.time-left').textContent()) ?? '', /\d+ (d|h|min|s)/, 'each job says how long it has left');
      await saveScreenshot(page, 'reviewer-queue');

      // j/k move the selection; Enter opens the selected job.
      for (let presses = 0; presses < 200 && (await row.getAttribute('aria-selected')) !== 'true'; presses++) await page.keyboard.press('j');
      assert.equal(await row.getAttribute('aria-selected'), 'true');
      await page.keyboard.press('Enter');

      await page.locator('[data-testid="document-pages"] canvas').first().waitFor({ timeout: 20_000 });
      assert.ok(Number(await page.locator('[data-testid="document-pages"]').getAttribute('data-page-count')) >= 1, 'the PDF is drawn');
      assert.ok((await page.locator('[data-testid="confidence"]').count()) >= 8, 'every field shows its confidence');
      assert.ok((await page.locator('.confidence.low').count()) >= 1, 'the low ones are marked');
      const temporal = await page.getByRole('link', { name: /Workflow in Temporal/ }).getAttribute('href');
      assert.ok(temporal?.endsWith(`/workflows/${encodeURIComponent(jobId)}`), `links to the workflow: ${temporal}`);

      await fixInvalidFields(page);
      const edited = `BROWSER-${randomUUID().slice(0, 8)}`;
      await page.locator('#field-invoiceNumber').fill(edited);
      await page.locator('#field-totalAmount').fill('4321.09');
      await saveScreenshot(page, 'reviewer-job');

      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('a');
      await page.getByText(/^Approved /).waitFor();

      const posted = await waitForJob(jobId, ['posted', 'failed']);
      assert.equal(posted.status, 'posted');
      const entries = await ledgerEntries(jobId);
      assert.equal(entries.length, 1);
      assert.equal(entries[0]?.invoice.invoiceNumber, edited);
      assert.equal(entries[0]?.invoice.totalAmount, 4321.09);
      assert.equal(posted.review?.reviewer, demo.reviewer.id, 'the decision names who signed in');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('when a job starts waiting for review while the queue is open, then it appears there without a reload', async () => {
    const { context, page, problems, socketMessages } = await openReviewer(browser);
    try {
      // The queue's first load has answered, and the job below does not exist yet.
      await page.getByText(/Refreshes by itself · updated/).waitFor({ timeout: 20_000 });
      await page.evaluate(() => {
        (globalThis as unknown as { loadedOnce?: string }).loadedOnce = 'this document';
      });
      const jobId = await jobAwaitingReview();
      // The page follows the queue over the WebSocket (reviewer/browser/live-queue.ts), polling only as a safety net.
      await page.locator(`tr[data-job-id="${jobId}"]`).waitFor({ timeout: 30_000 });
      // Another job's news may have redrawn the queue first; this job's own comes over the socket too.
      const told = () =>
        socketMessages
          .map((text) => JSON.parse(text) as { type: string; data?: { jobId?: string; status?: string } })
          .some((message) => message.type === 'event' && message.data?.jobId === jobId && message.data.status === 'awaiting_review');
      for (let tries = 0; tries < 120 && !told(); tries++) await new Promise((resolve) => setTimeout(resolve, 250));
      assert.ok(told(), 'the socket told the page the job is awaiting review');
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as { loadedOnce?: string }).loadedOnce),
        'this document',
        'the job came in by the page refreshing itself, not by a reload',
      );
      assert.equal(new URL(page.url()).hash, '', 'still on the queue');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('when the model’s output failed the schema, then the job shows the raw model output and what was wrong', async () => {
    const marker = `raw-output-${randomUUID()}`;
    const removeFault = await injectFault({ tool: 'record_invoice', textIncludes: marker }, 'malformed');
    let jobId: string | undefined;
    try {
      const invoice = await markedInvoice(marker);
      const { body } = await submit(invoice.bytes, { fileName: invoice.fileName });
      jobId = body.jobId as string;
      const waiting = await waitForJob(jobId, ['awaiting_review', 'posted', 'dead_letter', 'failed']);
      assert.equal(waiting.status, 'awaiting_review', JSON.stringify(waiting));
      const raw = waiting.rawModelOutput;
      assert.ok(raw, 'the job holds the raw output');
      assert.equal(waiting.extraction, undefined, 'nothing schema-valid was extracted');

      const { context, page, problems } = await openReviewer(browser);
      try {
        await page.goto(jobUrl(jobId));
        const panel = page.locator('details.raw-output');
        await panel.waitFor({ timeout: 20_000 });
        assert.equal((await panel.locator('summary').textContent())?.trim(), 'Raw model output');
        const text = page.getByTestId('raw-output');
        assert.ok(await text.isVisible(), 'the panel is open: there is no valid extraction to show instead');
        assert.equal(await text.textContent(), raw, 'the raw text exactly as the model wrote it');
        await page.getByText(/did not match the invoice schema/).waitFor();
        assert.ok((await page.locator('details.model-errors li').count()) >= 1, 'what was wrong with it is listed');
        await page.getByTestId('document-text').waitFor();
        await saveScreenshot(page, 'reviewer-raw-output');
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    } finally {
      await removeFault();
      // Leaves the queue as it found it for the other tests.
      await rejectIfInReview(jobId, 'browser test of the raw output panel');
    }
  });

  test('when a field is invalid, then the page shows the error at the field and approving posts nothing', async () => {
    const jobId = await jobAwaitingReview();
    const { context, page, problems } = await openReviewer(browser);
    try {
      const reviewRequests: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/review')) reviewRequests.push(request.url());
      });
      await page.goto(jobUrl(jobId));
      await page.locator('#field-issueDate').waitFor();
      await fixInvalidFields(page);
      assert.equal(await page.locator('#error-issueDate').textContent(), '');

      await page.locator('#field-issueDate').fill('31/12/2026');
      await page.locator('#field-currency').fill('euro');
      assert.match((await page.locator('#error-issueDate').textContent()) ?? '', /must match format "date"/);
      assert.match((await page.locator('#error-currency').textContent()) ?? '', /must match pattern/);
      assert.equal(await page.locator('#field-issueDate').getAttribute('aria-invalid'), '');

      await page.getByRole('button', { name: /^Approve/ }).click();
      await page.getByText(/Nothing was sent/).waitFor();
      await saveScreenshot(page, 'reviewer-invalid-field');
      assert.deepEqual(reviewRequests, [], 'no decision left the browser');
      assert.equal((await getJob(jobId)).body.status, 'awaiting_review');
      assert.equal((await ledgerEntries(jobId)).length, 0);

      // Rejecting needs a reason and goes through at once.
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('r');
      await page.getByLabel('Reason for rejecting').fill('Duplicate of an invoice we already paid');
      await page.keyboard.press('Enter');
      const rejected = await waitForJob(jobId, ['rejected', 'posted']);
      assert.equal(rejected.status, 'rejected');
      assert.equal(rejected.review?.reason, 'Duplicate of an invoice we already paid');
      assert.equal((await ledgerEntries(jobId)).length, 0);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('when a second reviewer decides a job someone already decided, then the page says "already decided" plainly', async () => {
    const jobId = await jobAwaitingReview();
    const first = await openReviewer(browser);
    const second = await openReviewer(browser, secondReviewer);
    try {
      for (const tab of [first, second]) {
        await tab.page.goto(jobUrl(jobId));
        await tab.page.locator('#field-invoiceNumber').waitFor();
        await fixInvalidFields(tab.page);
      }
      await first.page.locator('#field-invoiceNumber').fill('FIRST-WINS');
      await second.page.locator('#field-invoiceNumber').fill('SECOND-LOSES');

      await first.page.getByRole('button', { name: /^Approve/ }).click();
      await first.page.getByText(/^Approved /).waitFor();
      await second.page.getByRole('button', { name: /^Approve/ }).click();
      const message = second.page.getByTestId('decision-message');
      await message.getByText(/Already decided/).waitFor();
      assert.match((await message.textContent()) ?? '', /not recorded/);
      await saveScreenshot(second.page, 'reviewer-already-decided');
      assert.ok(await second.page.getByRole('button', { name: /^Approve/ }).isDisabled(), 'nothing more to click');
      assert.notEqual(await second.page.getByTestId('job-status').textContent(), 'awaiting review', 'the header shows where the job is now');

      const posted = await waitForJob(jobId, ['posted']);
      const entries = await ledgerEntries(jobId);
      assert.deepEqual(entries.map((entry) => entry.invoice.invoiceNumber), ['FIRST-WINS']);
      assert.equal(posted.review?.reviewer, demo.reviewer.id, 'the first reviewer, who decided, is recorded');
      assert.deepEqual([...first.problems, ...second.problems.filter((p) => !/409/.test(p))], []);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });

  test('when a decided text job is opened, then its text is shown and the page says there is nothing to review', async () => {
    const sample = await sampleWith('posted', false);
    const { body } = await submit(sample.bytes, { fileName: sample.fileName });
    const jobId = body.jobId as string;
    await waitForJob(jobId, ['posted', 'awaiting_review']);
    const { context, page, problems } = await openReviewer(browser);
    try {
      await page.goto(jobUrl(jobId));
      const text = page.getByTestId('document-text');
      await text.waitFor();
      assert.ok(((await text.textContent()) ?? '').length > 20, 'the uploaded text is shown');
      const status = (await getJob(jobId)).body.status;
      if (status === 'posted') await page.getByTestId('decision-message').getByText(/Already decided .* nothing left to review/).waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('when a PNG scan waits for review, then the page shows the image as uploaded beside the empty low-confidence fields', async () => {
    const { body } = await submit(new Uint8Array(pngOf(480, 320)), { fileName: `${randomUUID().slice(0, 8)}-scan.png` });
    const jobId = body.jobId as string;
    await waitForJob(jobId, ['awaiting_review']);
    const { context, page, problems } = await openReviewer(browser);
    try {
      await page.goto(jobUrl(jobId));
      const image = page.getByTestId('document-image');
      await image.waitFor({ timeout: 20_000 });
      // Decoded by the browser, so the bytes arrived whole and as an image (naturalWidth is 0 for a broken one).
      await page.waitForFunction(`document.querySelector('[data-testid="document-image"]')?.naturalWidth === 480`);
      assert.ok((await page.locator('[data-testid="confidence"]').count()) >= 8, 'every field shows its confidence');
      await saveScreenshot(page, 'reviewer-scan');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('when an order.score job waits in the grey zone, then the page shows its order and the model’s reasons instead of a document, and approving with the keyboard completes it', async () => {
    const key = `score-${randomUUID().slice(0, 8)}`;
    const orderId = `order-${randomUUID().slice(0, 8)}`;
    const submitted = await submitJson({ type: 'order.score', input: greyOrder(orderId) }, { key });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    const waiting = await waitForReview(jobId);
    assert.equal(waiting.name, orderId, 'the API names a JSON job by what its type names it by');
    const proposal = waiting.proposal as { score: number; reasons: string[] };

    const { context, page, problems } = await openReviewer(browser);
    try {
      const documentRequests: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/document')) documentRequests.push(request.url());
      });
      // The queue names it by its order and its type (visibility lags the workflow; the queue refreshes every 5 s).
      const row = page.locator(`tr[data-job-id="${jobId}"]`);
      await row.waitFor({ timeout: 30_000 });
      assert.equal(await row.locator('td.job-type').textContent(), 'Order score');
      assert.equal(await row.locator('a').textContent(), orderId, 'its order’s id, not the key it was submitted with');

      await page.goto(jobUrl(jobId));
      const facts = page.getByTestId('job-facts');
      await facts.waitFor({ timeout: 20_000 });
      const shown = (field: string) => facts.locator(`dd[data-field="${field}"]`).textContent();
      assert.equal(await page.locator('h1.file-name').textContent(), orderId, 'named by its order, as the type says (namedBy)');
      assert.equal(await page.getByTestId('job-type').textContent(), 'Order score');
      assert.equal(await shown('input.order.id'), orderId);
      assert.equal(await shown('input.customer.accountAgeDays'), '7');
      assert.equal(await shown('input.shipping.country'), 'FR');
      assert.equal(await shown('input.payment.cvvMatch'), 'yes');
      assert.equal(await shown('proposal.score'), `${Math.round(proposal.score * 100)}%`);
      assert.equal(await shown('proposal.decision'), 'review');
      assert.deepEqual(await facts.locator('dd[data-field="proposal.reasons"] li').allTextContents(), proposal.reasons, 'one reason per line');
      assert.equal(await page.locator('form.fields').count(), 0, 'no invoice form: an order is approved as it is');
      assert.equal(await page.locator('section.document').count(), 0, 'no document pane for a JSON input');
      await saveScreenshot(page, 'reviewer-order-score');

      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('a');
      await page.getByText(/^Approved /).waitFor();

      const done = await waitForJob(jobId, ['completed', 'failed']);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      assert.deepEqual(done.result, { score: proposal.score, decision: 'approve', reasons: proposal.reasons, decidedBy: 'reviewer' });
      assert.equal(done.review?.decision, 'approved');
      assert.equal(done.review?.reviewer, demo.reviewer.id, 'the decision names who signed in');
      assert.deepEqual(documentRequests.filter((url) => url.includes(encodeURIComponent(jobId))), [], 'no document was asked for');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test('when a job is of a type the page does not know (an API newer than the page), then the page says so instead of failing', async () => {
    const jobId = `future.type:${demo.id}:${randomUUID()}`;
    const { context, page, problems } = await openReviewer(browser);
    try {
      // The API answers with a type this page's bundle was built without.
      await page.route(`**/jobs/${encodeURIComponent(jobId)}`, (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ jobId, type: 'future.type', status: 'awaiting_review', detailed: true, links: {} }),
        }),
      );
      await page.goto(jobUrl(jobId));
      const notice = page.getByTestId('unknown-type');
      await notice.waitFor({ timeout: 20_000 });
      assert.match((await notice.textContent()) ?? '', /cannot show jobs of type "future\.type"/);
      assert.equal(await page.getByRole('button', { name: /^Approve/ }).count(), 0, 'nothing to decide on a job it cannot show');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
