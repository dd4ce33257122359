import type { FieldCitation } from '../../common/job-types/invoice/field-citations';
import type { CitedTextBlock, DocumentCitation } from '../../gateway/model-call';

/** `name:` at the start of a line (a leading "-" or "*" allowed): where the answer turns to the next field. */
const FIELD_LABEL = /(?:^|\n)[\s*-]*([A-Za-z][A-Za-z0-9]*)\s*:/g;

/**
 * Each asked field's first citation in a citations answer written as "<field>: <cited passage>" lines. The
 * provider splits such an answer into text blocks, the cited ones carrying `citations`; a block's citations belong
 * to the last field named before them (in the same block or an earlier one). Names not asked for are ignored, so
 * a quoted label such as "Total:" inside the answer cannot take another field's place.
 */
export function fieldCitationsOf(blocks: readonly CitedTextBlock[], asked: readonly string[]): Record<string, FieldCitation> {
  const fields: Record<string, FieldCitation> = {};
  let current: string | undefined;
  for (const block of blocks) {
    const named = [...block.text.matchAll(FIELD_LABEL)].map((match) => match[1] ?? '').filter((name) => asked.includes(name));
    // A block that opens with the name and then the quote cites for that name, not for the field before it.
    if (block.citations.length > 0) {
      const owner = named[0] ?? current;
      const first = block.citations[0];
      if (owner !== undefined && first && fields[owner] === undefined) fields[owner] = fieldCitationOf(first);
    }
    current = named.at(-1) ?? current;
  }
  return fields;
}

function fieldCitationOf(citation: DocumentCitation): FieldCitation {
  return citation.type === 'char_location'
    ? { citedText: citation.citedText, startChar: citation.startCharIndex, endChar: citation.endCharIndex }
    : { citedText: citation.citedText, startPage: citation.startPageNumber, endPage: citation.endPageNumber };
}
