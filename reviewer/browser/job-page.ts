import type { FieldCitations } from '../../common/job-types/invoice/field-citations';
import { ApiRequestError, type Job, type ReviewDecision } from './api';
import { type DrawnDocument, highlightCitation, showDocument } from './document-view';
import { h, mount } from './dom';
import type { FieldsForm } from './fields-form';
import { createEditableReview } from './editable-review';
import { renderJobFacts } from './job-facts';
import { jobNameOf, reviewerViewOf, type ReviewerView, typeTitleOf } from './job-types';
import { modelAnswerProblems } from './model-answer';
import { jobHash, type PageContext, queueHash } from './page-context';
import { formatTimeLeft } from './time-left';

export interface JobPage {
  approve(): void;
  startReject(): void;
  /** The job after (+1) or before (-1) this one in the queue, if any. */
  neighbour(offset: 1 | -1): string | undefined;
  close(): void;
}

/**
 * One job, as its type's reviewer view says: the document (or the type's read-only facts, e.g. an order and the
 * model's reasons) beside what the reviewer decides on (the fields its editable schema describes, or the decision alone).
 */
export function renderJobPage(root: HTMLElement, ctx: PageContext, jobId: string): JobPage {
  let open = true;
  let job: Job | undefined;
  let view: ReviewerView | undefined;
  let form: FieldsForm | undefined;
  let busy = false;
  let decided = false;
  // One Idempotency-Key for this page. The API names the Update after it and the decision's content, so a resend
  // of the same decision is the same Update (never a second one) and an edited decision is a new one, which the
  // workflow accepts or refuses (409) on its own instead of answering with the first decision's outcome.
  const requestId = crypto.randomUUID();

  // Filled once the job's type is known: its document, or its facts.
  const sidePane = h('section', { class: 'document', 'aria-label': 'Document' });
  const reviewPane = h('section', { class: 'review', 'aria-label': 'Review' }, h('p', { class: 'muted' }, 'Loading the job…'));
  const message = h('div', { class: 'message', role: 'status', 'aria-live': 'polite', 'data-testid': 'decision-message' });
  const header = h('div', { class: 'job-header' });
  const panes = h('div', { class: 'panes' }, sidePane, reviewPane);
  mount(root, h('div', { class: 'job-page' }, header, panes));

  const positionOf = () => ctx.queue().findIndex((queued) => queued.jobId === jobId);
  const neighbour = (offset: 1 | -1): string | undefined => {
    const queue = ctx.queue();
    const index = positionOf();
    if (index === -1) return offset === 1 ? queue[0]?.jobId : undefined;
    return queue[index + offset]?.jobId;
  };

  const say = (text: string, kind: 'info' | 'ok' | 'error' = 'info', details: string[] = []) => {
    message.className = `message ${kind}`;
    mount(message, h('strong', {}, text), details.length ? h('ul', {}, ...details.map((d) => h('li', {}, d))) : null);
  };

  const renderHeader = () => {
    const index = positionOf();
    const count = ctx.queue().length;
    mount(
      header,
      h('a', { href: queueHash, class: 'back' }, '← Queue'),
      h('span', { class: 'position muted' }, index >= 0 ? `${index + 1} of ${count}` : ''),
      h('h1', { class: 'file-name', title: jobId }, job ? jobNameOf(job) : jobId),
      job ? h('span', { class: 'job-type muted', 'data-testid': 'job-type' }, typeTitleOf(job.type)) : null,
      job?.reviewDeadline && !decided
        ? h('span', { class: 'time-left', 'data-deadline': job.reviewDeadline, title: `expires ${new Date(job.reviewDeadline).toLocaleString()}` }, formatTimeLeft(job.reviewDeadline, Date.now()))
        : null,
      h('span', { class: `status status-${job?.status ?? 'loading'}`, 'data-testid': 'job-status' }, job?.status.replace('_', ' ') ?? ''),
      job?.links.temporal ? h('a', { href: job.links.temporal, target: '_blank', rel: 'noopener', class: 'temporal-link' }, 'Workflow in Temporal ↗') : null,
    );
  };

  const alreadyDecided = (status: string, yours: boolean) => {
    decided = true;
    // Right after another decision the job may still read "awaiting review" for a moment; say what matters.
    const now = status === 'awaiting_review' ? 'Already decided — another decision was recorded first.' : `Already decided — this job is ${status.replace('_', ' ')} now.`;
    say(yours ? `${now} Your decision was not recorded.` : `${now} There is nothing left to review.`, 'error');
    root.querySelectorAll<HTMLButtonElement | HTMLInputElement | HTMLTextAreaElement>('.review button, .review input, .review textarea').forEach((element) => {
      element.disabled = true;
    });
    ctx.forget(jobId);
    // The header should not keep saying "awaiting review" with a countdown.
    if (job && status !== 'awaiting_review') job = { ...job, status: status as Job['status'] };
    renderHeader();
  };

  const decide = async (decision: ReviewDecision) => {
    if (busy || decided || !job) return;
    busy = true;
    reviewPane.setAttribute('aria-busy', 'true');
    say(decision.decision === 'approve' ? 'Approving…' : 'Rejecting…');
    try {
      await ctx.api.review(jobId, decision, requestId);
      decided = true;
      ctx.forget(jobId);
      const next = neighbour(1);
      ctx.toast(`${decision.decision === 'approve' ? 'Approved' : 'Rejected'} ${jobNameOf(job)}.`, 'ok');
      ctx.go(next ? jobHash(next) : queueHash);
    } catch (error) {
      if (!(error instanceof ApiRequestError)) return say(`The decision could not be sent: ${String(error)}. Try again.`, 'error');
      if (error.status === 409) return alreadyDecided(String(error.details.status ?? 'closed'), true);
      if (error.status === 422) {
        const errors = (error.details.errors as string[] | undefined) ?? [error.message];
        form?.showErrors(errors);
        return say('The server refused these fields:', 'error', errors);
      }
      if (error.status === 401) return ctx.signOut('Your reviewer token is no longer accepted. Sign in again.');
      say(`${error.message} (${error.code})`, 'error');
    } finally {
      busy = false;
      reviewPane.removeAttribute('aria-busy');
    }
  };

  const approve = () => {
    if (decided || !view) return;
    // A type approved as it is: yes is the whole decision.
    if (view.editable === undefined) return void decide({ decision: 'approve' });
    if (!form) return say('This page cannot show the fields this job is approved with. Nothing was sent.', 'error');
    const { fields, errors } = form.current();
    if (errors.length > 0) {
      form.focusFirstError();
      say(`Fix ${errors.length === 1 ? 'the highlighted field' : `the ${errors.length} highlighted problems`} before approving. Nothing was sent.`, 'error');
      return;
    }
    void decide({ decision: 'approve', fields });
  };

  const reason = h('textarea', { id: 'reject-reason', rows: 2, placeholder: 'Why is this rejected? (the client sees this)', 'aria-label': 'Reason for rejecting' });
  const rejectBox = h(
    'div',
    { class: 'reject-box', hidden: true },
    reason,
    h('button', { type: 'button', class: 'danger', onclick: () => confirmReject() }, 'Reject with this reason'),
    h('button', { type: 'button', class: 'link', onclick: () => (rejectBox.hidden = true) }, 'Cancel'),
  );
  reason.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      confirmReject();
    }
  });
  const startReject = () => {
    if (decided || !job || !view) return;
    rejectBox.hidden = false;
    reason.focus();
  };
  const confirmReject = () => {
    if (reason.value.trim() === '') {
      say('Say why the job is rejected; the reason is kept with the job.', 'error');
      reason.focus();
      return;
    }
    void decide({ decision: 'reject', reason: reason.value.trim() });
  };

  // Filled in as the document is drawn; a field focused before its page is drawn highlights nothing.
  const drawn: DrawnDocument = { pages: [] };
  /** A focused field's cited passage, highlighted on the document (cleared for a field without one). */
  const showCitationOf = (citations: FieldCitations, target: EventTarget | null) => {
    const key = target instanceof Element ? target.closest('[data-field]')?.getAttribute('data-field') : undefined;
    if (key) highlightCitation(sidePane, drawn, citations.fields[key.split('.')[0] ?? '']);
  };

  const renderReview = (loaded: Job, type: ReviewerView) => {
    const editing = type.editable && createEditableReview(loaded, loaded.type, type.title, type.editable, ctx.session.confidenceThreshold, () => message.replaceChildren());
    form = editing ? editing.form : undefined;
    const citations = editing ? editing.citations : undefined;
    if (form && citations?.textLayer) form.element.addEventListener('focusin', (event) => showCitationOf(citations, event.target));
    mount(
      reviewPane,
      editing ? editing.summary : h('div', { class: 'review-summary' }, ...modelAnswerProblems(loaded, true)),
      form?.element,
      message,
      h(
        'div',
        { class: 'decision-bar' },
        h('button', { type: 'button', class: 'primary', onclick: approve, 'aria-keyshortcuts': 'a' }, 'Approve', h('kbd', {}, 'a')),
        h('button', { type: 'button', class: 'danger-outline', onclick: startReject, 'aria-keyshortcuts': 'r' }, 'Reject…', h('kbd', {}, 'r')),
        h('span', { class: 'muted reviewer-name' }, `as ${ctx.reviewerName}`),
      ),
      rejectBox,
    );
  };

  /** A file type shows its document; a JSON type its facts (GET /jobs/:id/document would only repeat its input). */
  const renderSide = (loaded: Job, type: ReviewerView) => {
    if (type.showsDocument) return void showDocument(sidePane, ctx.api, loaded, () => open, drawn);
    const facts = h('section', { class: 'facts', 'aria-label': type.title }, renderJobFacts(type, loaded));
    sidePane.replaceWith(facts);
  };

  void (async () => {
    try {
      job = await ctx.api.job(jobId);
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 401) return ctx.signOut('Your reviewer token is no longer accepted.');
      mount(reviewPane, h('p', { class: 'error', role: 'alert' }, `Could not load the job: ${error instanceof Error ? error.message : String(error)}`));
      return;
    }
    if (!open) return;
    view = reviewerViewOf(job.type);
    renderHeader();
    if (!view) {
      // A type added after this page was built: saying so beats showing it as something it is not.
      panes.replaceChildren(
        h('p', { class: 'error', role: 'alert', 'data-testid': 'unknown-type' }, `This page cannot show jobs of type "${job.type}": it was built before that type existed. Reload the page; if that does not help, the reviewer page needs an update.`),
      );
      return;
    }
    renderReview(job, view);
    renderSide(job, view);
    if (job.status !== 'awaiting_review') alreadyDecided(job.status, false);
  })();
  renderHeader();

  return { approve, startReject, neighbour, close: () => (open = false) };
}
