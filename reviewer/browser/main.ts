import { ApiRequestError, createApi, type JobSummary, type ReviewSession } from './api';
import { h, isTyping, mount } from './dom';
import { notifyMeButton } from './notify-me';
import { type JobPage, renderJobPage } from './job-page';
import { jobHash, type PageContext, queueHash } from './page-context';
import { followQueue } from './live-queue';
import { type QueuePage, renderQueuePage } from './queue-page';
import { byOldest, formatTimeLeft, isUrgent } from './time-left';

const TOKEN_KEY = 'slowlane.reviewer.token';
/** Visibility is eventually consistent anyway; every few seconds is fresh enough and cheap. */
const QUEUE_REFRESH_MS = 5_000;
/** While the WebSocket says when the queue moves, polling is only the safety net. */
const LIVE_QUEUE_REFRESH_MS = 30_000;

const app = document.getElementById('app') as HTMLElement;
const toasts = document.getElementById('toasts') as HTMLElement;
const signedInAs = document.getElementById('signed-in-as') as HTMLElement;

function toast(message: string, kind: 'ok' | 'error' = 'ok'): void {
  const element = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, message);
  toasts.append(element);
  setTimeout(() => element.remove(), 6_000);
}

function signIn(message?: string): void {
  sessionStorage.removeItem(TOKEN_KEY);
  mount(signedInAs);
  const token = h('input', { id: 'token', type: 'password', autocomplete: 'current-password', required: true, 'aria-label': 'Reviewer token' });
  const error = h('p', { class: 'error', role: 'alert' }, message ?? '');
  const form = h(
    'form',
    { class: 'sign-in', 'aria-label': 'Sign in' },
    h('h1', {}, 'Reviewer sign-in'),
    h(
      'p',
      { class: 'muted' },
      'Use your own reviewer token, or an identity token from your sign-in provider. Your decisions are recorded under the identity it proves. It stays in this tab only.',
    ),
    h('label', { for: 'token' }, 'Reviewer token'),
    token,
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
    error,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void start(token.value.trim()).catch((reason: unknown) => {
      error.textContent = reason instanceof ApiRequestError && reason.status === 401 ? 'That token is not accepted.' : `Could not sign in: ${String(reason)}`;
    });
  });
  mount(app, form);
  token.focus();
}

async function start(token: string): Promise<void> {
  const api = createApi(token);
  const session: ReviewSession = await api.session();
  sessionStorage.setItem(TOKEN_KEY, token);
  // Who the credential proves, as the API records it: the page never names the reviewer itself.
  const reviewerName = session.reviewer;
  mount(
    signedInAs,
    `${reviewerName} · tenant ${session.tenantId} `,
    h('button', { type: 'button', class: 'link', onclick: () => stop('Signed out.') }, 'Sign out'),
  );
  void notifyMeButton(token, toast).then((button) => {
    // Signed out meanwhile: the bar was emptied and stays so.
    if (button && signedInAs.childNodes.length > 0) signedInAs.append(' · ', button);
  });

  let queue: JobSummary[] = [];
  let loadedAt: number | undefined;
  let queueError: string | undefined;
  let queuePage: QueuePage | undefined;
  let jobPage: JobPage | undefined;
  const forgotten = new Set<string>();

  const ctx: PageContext = {
    api,
    session,
    reviewerName,
    queue: () => queue,
    forget: (jobId) => {
      forgotten.add(jobId);
      queue = queue.filter((job) => job.jobId !== jobId);
    },
    go: (hash) => {
      if (location.hash === hash) route();
      else location.hash = hash;
    },
    toast,
    signOut: (message) => stop(message),
  };

  const refresh = async () => {
    try {
      // A decided job can linger in visibility for a moment; keep it out once this page saw it decided.
      queue = (await api.queue()).filter((job) => !forgotten.has(job.jobId)).sort(byOldest);
      loadedAt = Date.now();
      queueError = undefined;
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 401) return stop('Your reviewer token is no longer accepted.');
      queueError = error instanceof Error ? error.message : String(error);
    }
    queuePage?.update(queue, loadedAt, queueError);
  };

  function route(): void {
    jobPage?.close();
    jobPage = undefined;
    queuePage = undefined;
    const match = /^#\/jobs\/(.+)$/.exec(location.hash);
    if (match?.[1]) {
      jobPage = renderJobPage(app, ctx, decodeURIComponent(match[1]));
      document.title = 'Review a job · Slowlane';
    } else {
      queuePage = renderQueuePage(app, ctx);
      queuePage.update(queue, loadedAt, queueError);
      document.title = `Review queue (${queue.length}) · Slowlane`;
    }
    window.scrollTo(0, 0);
  }

  const onKey = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTyping(event.target)) {
      if (event.key === 'Escape') (event.target as HTMLElement).blur();
      return;
    }
    const step = event.key === 'j' ? 1 : event.key === 'k' ? -1 : 0;
    if (jobPage) {
      if (step !== 0) {
        const next = jobPage.neighbour(step);
        if (next) ctx.go(jobHash(next));
      } else if (event.key === 'a') jobPage.approve();
      else if (event.key === 'r') jobPage.startReject();
      else if (event.key === 'Escape' || event.key === 'u') ctx.go(queueHash);
      else return;
    } else if (queuePage) {
      if (step !== 0) queuePage.move(step);
      else if (event.key === 'Enter' || event.key === 'o') queuePage.openSelected();
      else return;
    } else return;
    event.preventDefault();
  };

  const ticker = setInterval(() => {
    const now = Date.now();
    for (const element of document.querySelectorAll<HTMLElement>('[data-deadline]')) {
      element.textContent = formatTimeLeft(element.dataset.deadline || undefined, now);
      element.classList.toggle('urgent', isUrgent(element.dataset.deadline || undefined, now));
    }
  }, 1_000);
  const live = followQueue(api.socketToken, () => void refresh());
  const refresher = setInterval(() => {
    if (!live.live || loadedAt === undefined || Date.now() - loadedAt >= LIVE_QUEUE_REFRESH_MS) void refresh();
  }, QUEUE_REFRESH_MS);

  function stop(message?: string): void {
    clearInterval(ticker);
    clearInterval(refresher);
    live.stop();
    window.removeEventListener('hashchange', route);
    document.removeEventListener('keydown', onKey);
    jobPage?.close();
    history.replaceState(null, '', location.pathname);
    signIn(message);
  }

  window.addEventListener('hashchange', route);
  document.addEventListener('keydown', onKey);
  route();
  await refresh();
}

const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved) {
  start(saved).catch(() => signIn('Sign in again.'));
} else {
  signIn();
}
