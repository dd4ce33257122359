import { h } from './dom';

/** What /push/subscribe.js puts on the window (api/push/push-browser-scripts.ts). */
interface SlowlanePush {
  subscribe(options: { token: string; reviewQueue: true }): Promise<{ id: string }>;
}

declare global {
  interface Window {
    slowlanePush?: SlowlanePush;
  }
}

const SUBSCRIBE_SCRIPT = '/push/subscribe.js';

/**
 * "Notify me of new work": this browser subscribes to the tenant's review queue over Web Push, so a reviewer whose
 * tab is closed or hidden hears of each job that starts waiting. The API's own helper script does the subscribing,
 * as any client page would. Absent where the browser has no Web Push or the deployment has not enabled it (the
 * public key answers 404), so no reviewer is offered what cannot work.
 */
export async function notifyMeButton(token: string, toast: (message: string, kind?: 'ok' | 'error') => void): Promise<HTMLElement | undefined> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return undefined;
  const key = await fetch('/push/vapid-public-key').catch(() => undefined);
  if (!key?.ok) return undefined;

  const button = h('button', { type: 'button', class: 'link', id: 'notify-me' }, 'Notify me of new work') as HTMLButtonElement;
  const turnedOn = () => {
    button.textContent = 'Notifying you of new work';
    button.disabled = true;
  };
  // A browser that subscribed before (in another visit) is still subscribed: the push service keeps it.
  const registration = await navigator.serviceWorker.getRegistration('/push/').catch(() => undefined);
  if (await registration?.pushManager.getSubscription().catch(() => null)) turnedOn();

  button.addEventListener('click', () => {
    button.disabled = true;
    void (async () => {
      try {
        const push = await loadSubscribeHelper();
        await push.subscribe({ token, reviewQueue: true });
        turnedOn();
        toast('This browser will tell you when a job starts waiting for review.');
      } catch (error) {
        button.disabled = false;
        toast(`Could not turn on notifications: ${error instanceof Error ? error.message : String(error)}`, 'error');
      }
    })();
  });
  return button;
}

/** The helper script, loaded once on first use (the page's CSP allows scripts of its own origin). */
function loadSubscribeHelper(): Promise<SlowlanePush> {
  if (window.slowlanePush) return Promise.resolve(window.slowlanePush);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SUBSCRIBE_SCRIPT;
    script.onload = () => (window.slowlanePush ? resolve(window.slowlanePush) : reject(new Error('the subscribe helper did not load')));
    script.onerror = () => reject(new Error('the subscribe helper could not be fetched'));
    document.head.append(script);
  });
}
