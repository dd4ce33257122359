import type { CallTranscript } from '../../common/api-contract/call-transcript';
import type { Job, ReviewerApi } from './api';
import { ApiRequestError } from './api';
import { h, mount } from './dom';

type Segment = CallTranscript['segments'][number];

/**
 * A call's timed lines beside its player (GET /jobs/:id/transcript): a click on a line seeks the recording to its
 * start and plays, the line being played is highlighted as the audio moves, and lines heard below the review
 * confidence are marked, so the reviewer listens first where the transcript is least to be trusted.
 */
export async function showCallTranscript(container: HTMLElement, api: ReviewerApi, job: Job, audio: HTMLAudioElement, isCurrent: () => boolean): Promise<void> {
  mount(container, h('p', { class: 'muted' }, 'Loading the transcript…'));
  let transcript: CallTranscript;
  try {
    transcript = await api.transcript(job.jobId);
  } catch (error) {
    if (!isCurrent()) return;
    const none = error instanceof ApiRequestError && error.status === 404;
    mount(container, h('p', none ? { class: 'muted' } : { class: 'error', role: 'alert' }, none ? 'No transcript for this call yet.' : `Could not load the transcript: ${messageOf(error)}`));
    return;
  }
  if (!isCurrent()) return;
  const { reviewConfidence } = transcript;
  const lines = transcript.segments.map((segment) => lineOf(segment, reviewConfidence, () => seek(audio, segment.start)));
  const low = lines.filter((line) => line.classList.contains('low-confidence')).length;
  mount(
    container,
    h('h2', { class: 'transcript-title' }, 'Transcript'),
    low > 0 ? h('p', { class: 'muted', 'data-testid': 'low-confidence-count' }, `${low} of ${lines.length} lines heard with low confidence (marked ⚠)`) : null,
    h('ol', { class: 'call-transcript', 'data-testid': 'call-transcript' }, ...lines),
  );
  // The line whose span holds the playing time; between lines, none.
  const follow = () => {
    const at = audio.currentTime;
    lines.forEach((line, index) => {
      const segment = transcript.segments[index] as Segment;
      const playing = at >= segment.start && at < segment.end;
      line.classList.toggle('current', playing);
      if (playing) line.setAttribute('aria-current', 'true');
      else line.removeAttribute('aria-current');
    });
  };
  audio.addEventListener('timeupdate', follow);
  audio.addEventListener('seeked', follow);
}

function lineOf(segment: Segment, reviewConfidence: number | undefined, onPick: () => void): HTMLLIElement {
  const low = segment.confidence !== undefined && reviewConfidence !== undefined && segment.confidence < reviewConfidence;
  return h(
    'li',
    {
      class: low ? 'transcript-line low-confidence' : 'transcript-line',
      'data-testid': 'transcript-line',
      'data-start': segment.start,
      ...(segment.confidence !== undefined ? { 'data-confidence': segment.confidence } : {}),
    },
    h(
      'button',
      { type: 'button', class: 'transcript-seek', onclick: onPick, title: low ? `Heard with confidence ${segment.confidence?.toFixed(2)}: listen to it` : 'Play from here' },
      h('span', { class: 'transcript-time' }, clock(segment.start)),
      segment.speaker ? h('span', { class: 'transcript-speaker' }, segment.speaker) : null,
      h('span', { class: 'transcript-text', 'data-testid': 'transcript-text' }, segment.text),
      low ? h('span', { class: 'low-confidence-mark', 'aria-label': 'low confidence' }, '⚠') : null,
    ),
  );
}

function seek(audio: HTMLAudioElement, seconds: number): void {
  audio.currentTime = seconds;
  // A browser may refuse to play (autoplay rules); the seek stands and the reviewer presses play.
  audio.play().catch(() => undefined);
}

function clock(seconds: number): string {
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
