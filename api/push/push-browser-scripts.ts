/**
 * Two small browser scripts the API serves so a page can offer "notify me" without a build step: the service worker
 * that shows each push, and a helper that subscribes. Plain ES2020, no imports: a service worker cannot share the
 * reviewer page's bundle, and a page includes the helper with one <script> tag (docs/clients.md, "Web Push").
 */

/** The service worker: shows each push as a notification and tells the open pages (they may refresh a list). */
export const PUSH_SERVICE_WORKER = `'use strict';
self.addEventListener('push', (event) => {
  let message;
  try {
    message = event.data ? event.data.json() : undefined;
  } catch (error) {
    message = undefined;
  }
  if (!message || !message.data) return;
  const job = message.data;
  const title = message.scope === 'review_queue' ? 'New review task' : 'Job ' + job.status.replace(/_/g, ' ');
  const body = message.jobType + ' ' + job.jobId;
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(title, { body, tag: job.jobId + ':' + message.id, data: message }),
      self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((pages) => {
        for (const page of pages) page.postMessage({ type: 'slowlane-push', message });
      }),
    ]),
  );
});
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const message = event.notification.data || {};
  // A review task opens the reviewer page; a job's news brings back the page that asked for it (GET /jobs needs a key).
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((pages) => {
      if (message.scope === 'review_queue') return self.clients.openWindow('/review');
      return pages[0] ? pages[0].focus() : undefined;
    }),
  );
});
`;

/** `window.slowlanePush.subscribe({ token, jobId } | { token, reviewQueue: true })` and `.unsubscribe({ token, id })`. */
export const PUSH_SUBSCRIBE_HELPER = `'use strict';
(function () {
  const base = new URL('.', document.currentScript ? document.currentScript.src : location.href);
  const bytes = (base64url) => {
    const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4));
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
  };
  const call = async (path, init) => {
    const response = await fetch(new URL(path, base), init);
    const body = response.status === 204 ? undefined : await response.json();
    if (!response.ok) throw new Error((body && body.error && body.error.message) || 'HTTP ' + response.status);
    return body;
  };
  const active = (registration) =>
    new Promise((resolve, reject) => {
      const worker = registration.installing || registration.waiting;
      if (!worker) return registration.active ? resolve() : reject(new Error('the service worker did not install'));
      worker.addEventListener('statechange', () => {
        if (worker.state === 'activated') resolve();
        else if (worker.state === 'redundant') reject(new Error('the service worker did not install'));
      });
    });
  async function subscribe(options) {
    if (!('serviceWorker' in navigator) || !('PushManager' in window)) throw new Error('this browser has no Web Push');
    if ((await Notification.requestPermission()) !== 'granted') throw new Error('notifications were not allowed');
    const { publicKey } = await call('vapid-public-key');
    const registration = await navigator.serviceWorker.register(new URL('service-worker.js', base), { scope: base.pathname });
    // Not navigator.serviceWorker.ready: that waits for a worker whose scope covers this page, and this one's
    // scope is /push/, which the calling page is usually not under; subscribing needs the worker active.
    await active(registration);
    const subscription =
      (await registration.pushManager.getSubscription()) ||
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(publicKey) }));
    const target = options.jobId !== undefined ? { jobId: options.jobId } : { reviewQueue: true };
    return call('subscriptions', {
      method: 'POST',
      headers: { authorization: 'Bearer ' + options.token, 'content-type': 'application/json' },
      body: JSON.stringify(Object.assign(subscription.toJSON(), target)),
    });
  }
  async function unsubscribe(options) {
    await call('subscriptions/' + encodeURIComponent(options.id), { method: 'DELETE', headers: { authorization: 'Bearer ' + options.token } });
  }
  window.slowlanePush = { subscribe, unsubscribe };
})();
`;
