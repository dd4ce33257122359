/** One run of a page's text layer, as pdf.js gives it, with the box it is drawn in (CSS px, relative to the page). */
export interface TextRun {
  text: string;
  box: { left: number; top: number; width: number; height: number };
}

/**
 * The runs that hold a cited passage, or [] when the page does not show it. Compared without whitespace and case:
 * the provider quotes the extracted text, whose spacing and line breaks pdf.js and the text extractor each
 * decide for themselves, while the characters are the same.
 */
export function runsShowing(runs: readonly TextRun[], citedText: string): number[] {
  const wanted = squeezed(citedText);
  if (wanted === '') return [];
  let text = '';
  const owner: number[] = [];
  runs.forEach((run, index) => {
    for (const character of squeezed(run.text)) {
      text += character;
      owner.push(index);
    }
  });
  const at = text.indexOf(wanted);
  if (at === -1) return [];
  return [...new Set(owner.slice(at, at + wanted.length))];
}

function squeezed(text: string): string {
  return text.replace(/\s+/g, '').toLowerCase();
}
