import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { apiUrl, getJob, review, submit, waitForJob } from '../support/api-client';
import { injectFault } from '../support/operations';
import { speakCall } from '../../local/samples/spoken-call';
import { launchChromium, openReviewer, saveScreenshot } from '../support/reviewer-browser';

/** What the test reads of the page's <audio> (the test project has no DOM types). */
interface AudioElement {
  readyState: number;
  duration: number;
  error: { code: number } | null;
  addEventListener(type: string, listener: () => void, options?: { once: boolean }): void;
}

describe('the reviewer page in Chromium, for a call in review', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    browser = await launchChromium();
    dir = await mkdtemp(join(tmpdir(), 'reviewer-call-'));
  });
  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('when a call’s summary failed its schema, then the page plays the recording beside the summary’s form', async () => {
    // The marker is in the call's script, so in its transcript: only this job's summary call is answered malformed.
    const marker = `marker${randomUUID().slice(0, 8)}`;
    const removeFault = await injectFault({ tool: 'summarize_call', textIncludes: marker }, 'malformed');
    let jobId: string | undefined;
    try {
      const call = await speakCall(
        [
          { speaker: 'A', text: `Hello, this is ${marker}. How can I help?` },
          { speaker: 'B', text: 'My parcel did not arrive.' },
        ],
        join(dir, 'call.wav'),
        { carryScript: true },
      );
      const submitted = await submit(await readFile(call.path), { fileName: 'parcel-call.wav', fields: { type: 'call.transcribe' } });
      assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
      jobId = submitted.body.jobId as string;
      const waiting = await waitForJob(jobId, ['awaiting_review', 'completed', 'failed', 'dead_letter'], 120_000);
      assert.equal(waiting.status, 'awaiting_review', JSON.stringify(waiting));

      const { context, page, problems } = await openReviewer(browser);
      try {
        await page.goto(`${apiUrl()}/review#/jobs/${encodeURIComponent(jobId)}`);
        const audio = page.getByTestId('document-audio');
        await audio.waitFor({ timeout: 20_000 });
        // The browser decoded the upload: its duration is the call's, so the reviewer can play and seek it.
        const seconds = await audio.evaluate(
          (element: AudioElement) =>
            new Promise<number>((resolve, reject) => {
              if (element.readyState >= 1) return resolve(element.duration);
              element.addEventListener('loadedmetadata', () => resolve(element.duration), { once: true });
              element.addEventListener('error', () => reject(new Error(`audio error ${element.error?.code}`)), { once: true });
            }),
        );
        assert.ok(Math.abs(seconds - call.durationSeconds) < 0.5, `${seconds} s against ${call.durationSeconds} s`);
        // The summary's form is built from CallSummary: its outcome is a choice among the schema's values.
        const outcomes = await page.locator('select option').allTextContents();
        assert.ok(outcomes.some((option) => /follow.up/i.test(option)), outcomes.join(', '));
        await saveScreenshot(page, 'reviewer-call');
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    } finally {
      await removeFault();
      if (jobId && (await getJob(jobId)).body.status === 'awaiting_review') {
        await review(jobId, { decision: 'reject', reason: 'browser test of the call player' });
      }
    }
  }, 180_000);
});
