import assert from '../support/assert';
import { afterAll, beforeAll, describe, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import type { PushMessage } from '../../common/api-contract/push';
import { type PushServiceStandIn, type StandInSubscription, startPushServiceStandIn } from '../../local/push-service/push-service';
import { apiUrl, demo, submit, waitForJob } from '../support/api-client';
import { launchChromium, openReviewer } from '../support/reviewer-browser';
import { sampleWith } from '../support/samples';

/**
 * Headless Chromium has no push service of its own, so `pushManager.subscribe()` is answered with a subscription of
 * the local push-service stand-in (what a browser's push service would hand the page); everything after it — the
 * API's helper script, the service worker's registration, the API storing the subscription, the worker encrypting
 * and sending the push, the stand-in decrypting it — is the real path.
 */
function answerSubscribeWith(subscription: StandInSubscription): string {
  return `(() => {
    const json = ${JSON.stringify(subscription)};
    let current = null;
    const made = { endpoint: json.endpoint, expirationTime: null, toJSON: () => json, unsubscribe: async () => { current = null; return true; } };
    PushManager.prototype.subscribe = async function () { current = made; return made; };
    PushManager.prototype.getSubscription = async function () { return current; };
  })();`;
}

async function eventually<T>(what: string, check: () => T | undefined): Promise<T> {
  for (let look = 0; look < 240; look++) {
    const found = check();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`never: ${what}`);
}

describe('the reviewer page’s “Notify me of new work”', () => {
  let browser: Browser;
  let service: PushServiceStandIn;
  beforeAll(async () => {
    browser = await launchChromium();
    service = await startPushServiceStandIn();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  test('when a reviewer turns it on, then a job that starts waiting for review is pushed to that browser, naming the job', async () => {
    const { publicKey } = (await (await fetch(`${apiUrl()}/push/vapid-public-key`)).json()) as { publicKey: string };
    const subscriber = service.subscribe(publicKey);
    const tab = await openReviewer(browser, demo.reviewer, apiUrl(), async (context) => {
      await context.grantPermissions(['notifications'], { origin: apiUrl() });
      await context.addInitScript(answerSubscribeWith(subscriber.subscription));
    });
    try {
      const button = tab.page.getByRole('button', { name: 'Notify me of new work' });
      await button.click();
      // An error is shown as a toast: named in the failure, so a broken subscription says why.
      await tab.page
        .getByRole('button', { name: 'Notifying you of new work' })
        .waitFor()
        .catch(async (error: unknown) => assert.fail(`${String(error)}; the page said: ${await tab.page.locator('#toasts').innerText()}; ${tab.problems.join('; ')}`));
      // The page registered the API's service worker, which shows the pushes this browser receives.
      const scope = await tab.page.evaluate<string | undefined>(`navigator.serviceWorker.getRegistration('/push/').then((r) => r && r.scope)`);
      assert.equal(scope, `${apiUrl()}/push/`);

      const sample = await sampleWith('awaiting_review');
      const jobId = (await submit(sample.bytes, { fileName: sample.fileName })).body.jobId as string;
      await waitForJob(jobId, ['awaiting_review']);
      const push = await eventually('the browser’s subscription heard of the review task', () =>
        service.received(subscriber.id).map((received) => received.payload as PushMessage).find((message) => message.data.jobId === jobId),
      );
      assert.equal(push.scope, 'review_queue');
      assert.equal(push.data.status, 'awaiting_review');
      assert.deepEqual(tab.problems, []);
    } finally {
      await tab.context.close();
    }
  }, 240_000);
});
