/**
 * The simulator's "model" for long documents: extractive and deterministic. A chunk's summary is its first
 * sentences; its key terms are its most frequent longer words. A document's summary is built from the chunk
 * summaries it is given (one per line, as the worker sends them), so the reduce step really reads the map's output.
 */

const STOP_WORDS = new Set(
  'about above after again against because before being below between could during each every first from further have having here into itself more most other ought over same should some such than that their theirs them then there these they this those through under until very what when where which while whom with would your yours page chunk pages'.split(
    ' ',
  ),
);

export function sentencesOf(text: string): string[] {
  return (text.replace(/\s+/g, ' ').trim().match(/[^.!?]+[.!?]+|[^.!?]+$/g) ?? []).map((s) => s.trim()).filter(Boolean);
}

/** The first sentences of `text` that fit in `maxChars` (at least one, cut if it alone is longer). */
export function leadOf(text: string, maxChars: number): string {
  let lead = '';
  for (const sentence of sentencesOf(text)) {
    const next = lead === '' ? sentence : `${lead} ${sentence}`;
    if (next.length > maxChars) break;
    lead = next;
  }
  if (lead === '') lead = text.replace(/\s+/g, ' ').trim().slice(0, maxChars);
  return lead === '' ? '(no text)' : lead;
}

/** The `count` most frequent words of five letters or more, ties broken alphabetically. */
export function keyTermsOf(text: string, count: number): string[] {
  const frequency = new Map<string, number>();
  for (const word of text.toLowerCase().match(/\p{L}{5,}/gu) ?? []) {
    if (STOP_WORDS.has(word)) continue;
    frequency.set(word, (frequency.get(word) ?? 0) + 1);
  }
  return [...frequency.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, count)
    .map(([word]) => word.slice(0, 60));
}

export function summarizeChunk(text: string): { summary: string; keyTerms: string[] } {
  return { summary: leadOf(text, 400), keyTerms: keyTermsOf(text, 5) };
}

/** The chunk summaries arrive one per line, each possibly prefixed with its page range in brackets. */
export function summarizeDocument(chunkSummaries: string): { title: string; summary: string; keyTopics: string[] } {
  const lines = chunkSummaries
    .split('\n')
    .map((line) => line.replace(/^\[[^\]]*\]\s*/, '').trim())
    .filter(Boolean);
  // The first sentence of about twelve evenly spaced chunks: covers the whole document at a bounded length.
  const step = Math.max(1, Math.ceil(lines.length / 12));
  const picked = lines.filter((_, index) => index % step === 0).map((line) => sentencesOf(line)[0] ?? line);
  const summary = leadOf(picked.join(' '), 3000);
  const title = leadOf(lines[0] ?? 'Untitled document', 120);
  return { title, summary, keyTopics: keyTermsOf(lines.join(' '), 10) };
}
