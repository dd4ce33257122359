import assert from 'node:assert/strict';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { LocalPerson } from '../../local/stack/local-secrets';
import { apiUrl, demo } from './api-client';
import { testEnv } from './test-env';

/** Chromium from Debian, headless (local/stack/tools.ts ensureChromium installs it when browser tests are selected). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export interface ReviewerTab {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions seen so far; a page that reads well has none. */
  problems: string[];
  /** The text of every WebSocket message the page received (its live queue, reviewer/browser/live-queue.ts). */
  socketMessages: string[];
}

/**
 * A laptop-sized window (1366×800) signed in to /review with a demo reviewer's own token (the first by default), on
 * the test stack's API unless another (test/support/extra-api.ts) is named.
 */
export async function openReviewer(
  browser: Browser,
  reviewer: LocalPerson = demo.reviewer,
  baseUrl: string = apiUrl(),
  /** Runs on the fresh context before the page opens (permissions, init scripts). */
  prepare?: (context: BrowserContext) => Promise<void>,
): Promise<ReviewerTab> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 }, deviceScaleFactor: 1 });
  await prepare?.(context);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  const socketMessages: string[] = [];
  page.on('websocket', (socket) => socket.on('framereceived', (frame) => socketMessages.push(String(frame.payload))));
  page.on('response', (response) => {
    // 409 and 422 are answers the page shows the reviewer; anything else failing is a defect of the page.
    if (response.status() >= 400 && ![409, 422].includes(response.status())) problems.push(`HTTP ${response.status()} ${response.url()}`);
  });
  await page.goto(`${baseUrl}/review`);
  await page.getByLabel('Reviewer token').fill(reviewer.token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: /Awaiting review/ }).waitFor();
  // The page says who the token proved, the identity the API records with each decision.
  await page.locator('#signed-in-as').getByText(reviewer.id).waitFor();
  return { context, page, problems, socketMessages };
}

/**
 * Removes the `<prefix>*.png` screenshots an earlier run left in the artifacts folder (testEnv().artifactsDir:
 * SLOWLANE_TEST_ARTIFACTS, else test-artifacts/), so a screenshot there was taken by this run or not at all.
 * Returns the names it removed.
 */
export async function clearScreenshots(prefix: string): Promise<string[]> {
  const dir = testEnv().artifactsDir;
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.startsWith(prefix) && name.endsWith('.png'));
  await Promise.all(names.map((name) => rm(join(dir, name), { force: true })));
  return names;
}

/** Saves a screenshot as a test artifact (test-artifacts/, gitignored) and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  const dir = testEnv().artifactsDir;
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

const VALID_SCALARS: Record<string, string> = {
  invoiceNumber: 'INV-FIXED-1',
  issuer: 'Reviewed Supplier BV',
  issueDate: '2026-11-30',
  dueDate: '',
  currency: 'EUR',
  totalAmount: '100.00',
  subtotalAmount: '',
  taxAmount: '',
};

/** Whatever the model got wrong, a person fixes: every field the page marks invalid gets a valid value. */
export async function fixInvalidFields(page: Page): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const invalid = await page.locator('form.fields input[aria-invalid]').evaluateAll((inputs) => inputs.map((input) => input.getAttribute('name') ?? ''));
    if (invalid.length === 0) return;
    for (const name of invalid) {
      const value = name in VALID_SCALARS ? (VALID_SCALARS[name] as string) : name.endsWith('.description') ? 'Item' : '1';
      await page.locator(`input[name="${name}"]`).fill(value);
    }
  }
  assert.deepEqual(await page.locator('form.fields input[aria-invalid]').count(), 0, 'the form is valid after fixing');
}
