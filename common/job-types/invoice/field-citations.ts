import { type Static, Type } from '@sinclair/typebox';
import { closed } from '../../api-contract/schema-kit';

/**
 * Where in the document a field's value was read: the passage the provider cited (its `cited_text`) and where it is.
 * The extracted text is what is cited (a block per line), so the range counts characters of that text (0-based,
 * end exclusive); pages are there when the provider cited a PDF (`page_location`, 1-based, end exclusive). The
 * reviewer page finds the passage on the rendered PDF page by its text.
 */
export const FieldCitation = closed({
  citedText: Type.String({ description: 'The passage as the provider quoted it from the document.' }),
  startChar: Type.Optional(Type.Integer({ minimum: 0, description: 'First character of the passage in the extracted text (0-based).' })),
  endChar: Type.Optional(Type.Integer({ minimum: 0, description: 'One past its last character (exclusive).' })),
  startPage: Type.Optional(Type.Integer({ minimum: 1, description: 'First page of the passage (1-based).' })),
  endPage: Type.Optional(Type.Integer({ minimum: 1, description: 'One past its last page (exclusive).' })),
});
export type FieldCitation = Static<typeof FieldCitation>;

/**
 * The citations of an extraction, beside it (never in the invoice a reviewer edits or the ledger receives). A
 * field absent from `fields` was not cited: the reviewer page flags it. `textLayer: false` is a scan, which the
 * provider cannot cite (it cites text, not images); `unavailable` says why a text document has none.
 */
export const FieldCitations = closed(
  {
    textLayer: Type.Boolean({ description: 'False for a scan: nothing to cite, the reviewer reads the image.' }),
    fields: Type.Record(Type.String(), FieldCitation, { description: 'By top-level invoice field name.' }),
    unavailable: Type.Optional(Type.String({ description: 'Why the citation call gave none (it failed, or its answer was cut).' })),
  },
  { description: 'Where each extracted field was read in the document (Messages API citations on the document).' },
);
export type FieldCitations = Static<typeof FieldCitations>;
