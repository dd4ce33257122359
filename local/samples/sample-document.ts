/** A demo document described as data, so the catalogue reads like the invoices it produces. */

export type ExpectedOutcome = 'posted' | 'awaiting_review' | 'rejected';

export type Block =
  /** Large bold line: the letterhead or the document title. */
  | { kind: 'heading'; text: string }
  /** Small lines under a letterhead: address, VAT number. */
  | { kind: 'lines'; lines: string[] }
  /** Label and value on one row, the value in a second column. */
  | { kind: 'fields'; rows: Array<[label: string, value: string]> }
  /** A table: header row and body rows, columns right of the first right-aligned like amounts are. */
  | { kind: 'table'; columns: string[]; rows: string[][] }
  /** Running text, wrapped to the page width. */
  | { kind: 'paragraph'; text: string }
  | { kind: 'gap' };

interface SampleBase {
  fileName: string;
  expectedOutcome: ExpectedOutcome;
  description: string;
}

export interface PdfSample extends SampleBase {
  format: 'pdf';
  title: string;
  blocks: Block[];
}

export interface TextSample extends SampleBase {
  format: 'txt';
  text: string;
}

/** A scanned page with no text: the model is shown the image (docs/gateway.md, scanned documents). */
export interface ScanSample extends SampleBase {
  format: 'png';
  width: number;
  height: number;
}

export type SampleDocument = PdfSample | TextSample | ScanSample;
