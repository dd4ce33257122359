import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { demo, getJob, rejectIfInReview, submitJson, waitForReview } from '../support/api-client';
import { type ExtraApi, startExtraApi } from '../support/extra-api';
import { greyOrder } from '../../local/samples/sample-orders';
import { launchChromium, openReviewer, saveScreenshot } from '../support/reviewer-browser';

/**
 * A second type with an editable result, declared in its definition and nowhere else: an API process of the test
 * stack that imports test/support/editable-order-decision.ts first sees `order.score` as a type whose reviewer
 * edits the decision. The reviewer page it serves and its review route know the type only from that declaration.
 */
const PRELOAD = join(__dirname, '..', 'support', 'editable-order-decision.ts');

/** POST /jobs/:id/review from inside the signed-in page, as any client of the API would send it. */
async function postReview(page: Page, jobId: string, body: unknown): Promise<{ status: number; body: { error?: { code?: string; details?: { errors?: string[] } } } }> {
  return page.evaluate(
    async ({ jobId, body, token }) => {
      const response = await fetch(`/jobs/${encodeURIComponent(jobId)}/review`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { error?: { code?: string; details?: { errors?: string[] } } } };
    },
    { jobId, body, token: demo.reviewerToken },
  );
}

describe('the reviewer page in Chromium, for a type whose editable result is declared by its definition alone', () => {
  let browser: Browser;
  let api: ExtraApi;
  beforeAll(async () => {
    api = await startExtraApi('api-editable-order', {}, { preload: PRELOAD });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  test('when an order.score job awaits review, then the page builds its decision form from the schema, checks it as the API does, and the API refuses an invalid decision with 422', async () => {
    const orderId = `order-${randomUUID().slice(0, 8)}`;
    const submitted = await submitJson({ type: 'order.score', input: greyOrder(orderId) });
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
    const jobId = submitted.body.jobId as string;
    const waiting = await waitForReview(jobId);
    const proposal = waiting.proposal as { reasons: string[] };

    const { context, page, problems } = await openReviewer(browser, demo.reviewer, api.url);
    try {
      const reviewRequests: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/review')) reviewRequests.push(request.postData() ?? '');
      });
      await page.goto(`${api.url}/review#/jobs/${encodeURIComponent(jobId)}`);

      // The form, from the schema: an enum as a choice marked required, a list of strings pre-filled from the proposal.
      const form = page.getByRole('form', { name: 'Order score fields' });
      await form.waitFor({ timeout: 20_000 });
      const decision = page.locator('select#field-decision');
      assert.deepEqual(await decision.locator('option').allTextContents(), ['— choose —', 'approve', 'decline']);
      assert.equal(await decision.getAttribute('aria-required'), 'true');
      assert.match((await page.locator('label[for="field-decision"]').textContent()) ?? '', /Decision \*/);
      assert.equal(await page.locator('.field[data-field="decision"] .hint').textContent(), 'What happens to the order.');
      const reasons = await Promise.all(proposal.reasons.map((_, index) => page.locator(`#field-reasons\\.${index}`).inputValue()));
      assert.deepEqual(reasons, proposal.reasons, 'one input per reason the model gave');
      assert.equal(await page.getByTestId('job-facts').count(), 1, 'the order’s facts still show beside the form');

      // The model's "review" is no final decision: unchosen, and the page's own check (the API's schema) says so.
      assert.equal(await decision.inputValue(), '');
      assert.match((await page.locator('#error-decision').textContent()) ?? '', /must be equal to one of the allowed values/);
      await page.getByRole('button', { name: /^Approve/ }).click();
      await page.getByText(/Nothing was sent/).waitFor();
      assert.deepEqual(reviewRequests, [], 'no decision left the browser');

      // Whatever a client sends, the API checks it by the declared schema: 422 invalid_fields naming each problem.
      const invalid = await postReview(page, jobId, { decision: 'approve', fields: { decision: 'maybe', reasons: [] } });
      assert.equal(invalid.status, 422, JSON.stringify(invalid.body));
      assert.equal(invalid.body.error?.code, 'invalid_fields');
      const errors = invalid.body.error?.details?.errors ?? [];
      assert.ok(errors.some((line) => line.startsWith('/decision ')), errors.join('; '));
      assert.ok(errors.some((line) => line.startsWith('/reasons ')), errors.join('; '));
      const bare = await postReview(page, jobId, { decision: 'approve' });
      assert.equal(bare.status, 422, 'a type approved with fields is not approved without them');
      assert.equal((await getJob(jobId)).body.status, 'awaiting_review', 'nothing reached the job');

      // A valid choice clears the errors, and Approve sends the value the schema describes.
      await decision.selectOption('decline');
      await page.locator('#field-reasons\\.0').fill('Three chargebacks on this card');
      assert.equal(await page.locator('#error-decision').textContent(), '');
      assert.equal(await page.locator('form.fields [aria-invalid]').count(), 0);
      await saveScreenshot(page, 'reviewer-editable-order');
      const answered = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/review'));
      await page.getByRole('button', { name: /^Approve/ }).click();
      const answer = await answered;
      assert.deepEqual(JSON.parse(answer.request().postData() ?? '{}'), {
        decision: 'approve',
        fields: { decision: 'decline', reasons: ['Three chargebacks on this card', ...proposal.reasons.slice(1)] },
      });
      // The API's check accepts it and hands it to the job's Update. The stack's workers were not told of the
      // declaration, so the workflow's own check (the same function, on the registered order.score) is the one
      // that refuses: its words, not a schema error of the fields.
      const refusal = (await answer.json()) as { error?: { details?: { errors?: string[] } } };
      assert.deepEqual(refusal.error?.details?.errors, ['/fields: this job type is approved as it is; send no fields']);
      // The page's fetch of a 422 is logged by Chromium as a failed resource; those are this test's own.
      assert.deepEqual(problems.filter((problem) => !/\b422\b/.test(problem)), []);
    } finally {
      await context.close();
      // The workers were not told of the declaration: the job is left to be rejected, as the queue found it.
      await rejectIfInReview(jobId, 'browser test of a declared editable result');
    }
  });
});
