/**
 * `summarize_call`: a rule-based reading of the transcript lines the worker sends (`[mm:ss] speaker: text`): the
 * summary quotes how the call opened and ended, an action item is a sentence where someone says they will do
 * something (its speaker the owner), and the outcome follows a few plain words. Deterministic, so tests can check it.
 */
export function summarizeCall(documentText: string): object {
  const lines = documentText
    .split('\n')
    .map((line) => /^\[(\d+:\d+)\]\s*(?:([^:\s]+):)?\s*(.*)$/.exec(line.trim()))
    .filter((match): match is RegExpExecArray => match !== null && (match[3] ?? '').trim() !== '')
    .map((match) => ({ at: match[1] ?? '00:00', speaker: match[2] ?? null, text: (match[3] ?? '').trim() }));
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (!first || !last) return { summary: 'The recording holds no words the transcript could make out.', actionItems: [], outcome: 'unresolved' };
  const speakers = new Set(lines.map((line) => line.speaker).filter(Boolean));
  const summary =
    `A call of ${lines.length} turns${speakers.size > 0 ? ` between ${speakers.size} speakers` : ''}, ending at ${last.at}. ` +
    `It opened with "${first.text}" and ended with "${last.text}".`;
  const actionItems = lines.flatMap((line) =>
    line.text
      .split(/(?<=[.!?])\s+/)
      .filter((sentence) => /\b(i will|i'll|we will|we'll|i can do that|let me)\b/i.test(sentence))
      .map((sentence) => ({ text: sentence, owner: line.speaker })),
  );
  const all = lines.map((line) => line.text).join(' ').toLowerCase();
  const outcome = /escalat|manager|supervisor/.test(all)
    ? 'escalated'
    : /call you back|get back to you|follow up|send you/.test(all)
      ? 'follow_up'
      : /thank you|sorted|resolved|i can do that|done/.test(all)
        ? 'resolved'
        : 'unresolved';
  return { summary: summary.slice(0, 2000), actionItems: actionItems.slice(0, 20), outcome };
}
