import assert from '../support/assert';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import type { CallTranscript } from '../../common/api-contract/call-transcript';
import { apiUrl, demo, rejectIfInReview, submit, waitForReview } from '../support/api-client';
import { injectFault } from '../support/operations';
import { speakCall } from '../../local/samples/spoken-call';
import { launchChromium, openReviewer, saveScreenshot } from '../support/reviewer-browser';

/** What the test reads of the page's <audio> (the test project has no DOM types). */
interface AudioElement {
  currentTime: number;
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
      await waitForReview(jobId, 120_000);

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
      await rejectIfInReview(jobId, 'browser test of the call player');
    }
  }, 180_000);

  test('when a call was heard with low confidence, then it waits in review with a valid summary, its lines beside the player: a click seeks, the line played is highlighted, the poorly heard one marked', async () => {
    let jobId: string | undefined;
    try {
      // The script tag tells the simulator to hear the long second line poorly (common/job-types/call/script-tag.ts):
      // most of the call's audio, so the call's confidence is well below the review line.
      const mumbled = `My parcel did not arrive on Tuesday, and nobody called me about it, reference ${randomUUID().slice(0, 8)}.`;
      const call = await speakCall(
        [
          { speaker: 'A', text: 'Hello.' },
          { speaker: 'B', text: mumbled, confidence: 0.05 },
          { speaker: 'A', text: 'I will send a new one today.' },
        ],
        join(dir, 'quiet-call.wav'),
        { carryScript: true },
      );
      const submitted = await submit(await readFile(call.path), { fileName: 'quiet-call.wav', fields: { type: 'call.transcribe' } });
      assert.equal(submitted.status, 202, JSON.stringify(submitted.body));
      jobId = submitted.body.jobId as string;
      const waiting = await waitForReview(jobId, 120_000);
      assert.match(waiting.reviewReason ?? '', /^transcription confidence 0\.\d\d below 0\.\d\d$/);
      // The summary was valid: nothing in it sent the call here.
      assert.equal(waiting.validationErrors, undefined);

      const stored = await fetch(`${apiUrl()}/jobs/${encodeURIComponent(jobId)}/transcript`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
      assert.equal(stored.status, 200);
      const transcript = (await stored.json()) as CallTranscript;
      assert.deepEqual(
        transcript.segments.map((segment) => segment.text),
        call.script.map((line) => line.text),
      );

      const { context, page, problems } = await openReviewer(browser);
      try {
        await page.goto(`${apiUrl()}/review#/jobs/${encodeURIComponent(jobId)}`);
        await page.getByTestId('transcript-line').first().waitFor({ timeout: 20_000 });
        assert.equal(await page.getByTestId('review-reason').textContent(), `In review: ${waiting.reviewReason}`);
        const shown = await page.getByTestId('transcript-text').allTextContents();
        assert.deepEqual(shown, transcript.segments.map((segment) => segment.text));
        const low = await page.locator('[data-testid="transcript-line"].low-confidence [data-testid="transcript-text"]').allTextContents();
        assert.deepEqual(low, [mumbled]);

        const audio = page.getByTestId('document-audio');
        await audio.evaluate(
          (element: AudioElement) =>
            new Promise<void>((resolve) => (element.readyState >= 1 ? resolve() : element.addEventListener('loadedmetadata', () => resolve(), { once: true }))),
        );
        const third = transcript.segments[2]!;
        await page.getByTestId('transcript-line').nth(2).locator('button').click();
        const at = await audio.evaluate((element: AudioElement) => element.currentTime);
        // Playing may have moved it on a little since the click; it starts at the line's start, not before.
        assert.ok(at >= third.start - 0.01 && at < third.end, `currentTime ${at}, line ${third.start}–${third.end}`);
        await page.locator('[data-testid="transcript-line"].current').waitFor({ timeout: 5_000 });
        assert.deepEqual(await page.locator('[data-testid="transcript-line"].current [data-testid="transcript-text"]').allTextContents(), [third.text]);
        await saveScreenshot(page, 'reviewer-call-transcript');
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    } finally {
      await rejectIfInReview(jobId, 'browser test of the call transcript');
    }
  }, 180_000);
});
