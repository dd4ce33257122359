import { SAMPLE_CATALOG } from '../../local/samples/sample-catalog';

const CLEAN_TEXT_INVOICE = SAMPLE_CATALOG.find(
  (sample) => sample.format === 'txt' && sample.expectedOutcome === 'posted',
);

/**
 * The project's clean plain-text invoice (it posts without review) with a marker line on top, so each job's
 * provider calls can be found in the simulator's call log. Text, not PDF: the benchmark measures the token
 * budget, and two cores spent parsing PDFs would measure something else.
 */
export function benchDocument(marker: string): Uint8Array {
  if (!CLEAN_TEXT_INVOICE || CLEAN_TEXT_INVOICE.format !== 'txt')
    throw new Error('the sample catalog lost its clean text invoice');
  return new TextEncoder().encode(`Ref: ${marker}\n${CLEAN_TEXT_INVOICE.text}`);
}
