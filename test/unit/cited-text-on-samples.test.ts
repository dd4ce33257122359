import { readFile } from 'node:fs/promises';
import assert from '../support/assert';
import { realInvoices } from '../support/real-invoices';
import { describe, test } from '@jest/globals';
import { askedFields, citationQuestion } from '../../activities/invoice/cite-invoice-fields';
import { readText } from '../../activities/read-upload';
import { fieldCitationsOf } from '../../activities/invoice/field-citations-of';
import { citableLinesOf, citedBlocksOf } from '../../gateway/citation-params';
import type { CitedTextBlock } from '../../gateway/model-call';
import { renderPdf } from '../../local/samples/pdf-render';
import { SAMPLE_CATALOG } from '../../local/samples/sample-catalog';
import { citedAnswer } from '../../local/simulator/citations';
import { readInvoice } from '../../local/simulator/reader/read-invoice';
import { runsShowing, type TextRun } from '../../reviewer/browser/cited-text-match';

/** Each page's text runs as pdf.js gives them to the reviewer page (boxes are not needed to find the text). */
async function pageRuns(bytes: Buffer): Promise<TextRun[][]> {
  const unpdf = await import('unpdf');
  const pdf = await unpdf.getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  try {
    const pages: TextRun[][] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const { items } = await (await pdf.getPage(number)).getTextContent();
      pages.push(items.flatMap((item) => ('str' in item && item.str.trim() !== '' ? [{ text: item.str, box: { left: 0, top: 0, width: 0, height: 0 } }] : [])));
    }
    return pages;
  } finally {
    await pdf.loadingTask.destroy();
  }
}

/**
 * The whole chain on every sample PDF, without a browser: the text the worker extracts, the simulator's cited answer
 * to the question the worker asks, the fields read from it, and each cited passage found among the text runs the
 * reviewer page highlights from. A passage the page could not find would leave its field unhighlighted.
 */
describe('cited passages on the sample invoices', () => {
  const pdfs = SAMPLE_CATALOG.filter((sample) => sample.format === 'pdf');

  test.each(pdfs.map((sample) => [sample.fileName, sample] as const))('when %s is cited, then every cited passage is found on a page of its PDF', async (_name, sample) => {
    assert.ok(sample.format === 'pdf');
    await citedPassagesAreOnThePages(await renderPdf(sample));
  });

  test.each(realInvoices('.pdf').map((invoice) => [invoice.name, invoice.path] as const))('when the real invoice %s is cited, then every cited passage is found on a page of its PDF', async (_name, path) => {
    await citedPassagesAreOnThePages(await readFile(path));
  });

  async function citedPassagesAreOnThePages(bytes: Buffer): Promise<void> {
    const { text } = await readText(bytes, 'application/pdf');
    const asked = askedFields(readInvoice(text));
    // As the gateway sends it (a block per line) and reads the answer back (block ranges to characters).
    const lines = citableLinesOf(text);
    const answer = citedAnswer({ kind: 'blocks', blocks: lines.map((line) => line.text) }, citationQuestion(asked));
    const blocks: CitedTextBlock[] = citedBlocksOf({ content: answer } as unknown as Parameters<typeof citedBlocksOf>[0], lines);
    const fields = fieldCitationsOf(blocks, asked.map(([name]) => name));
    if (asked.some(([name]) => name === 'invoiceNumber')) assert.ok(fields.invoiceNumber, 'a printed invoice number is cited');
    const pages = await pageRuns(bytes);
    for (const [name, citation] of Object.entries(fields)) {
      assert.equal(text.slice(citation.startChar, citation.endChar), citation.citedText, `${name}: the range points at the passage`);
      assert.ok(pages.some((runs) => runsShowing(runs, citation.citedText).length > 0), `${name}: "${citation.citedText}" is on a page`);
    }
  }
});
