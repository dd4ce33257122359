import { Context } from '@temporalio/activity';
import { DocumentTooLargeError, InvalidDocumentError } from '../../common/errors';
import { isImageMediaType, type VisualDocument } from '../../common/model-media';
import { objectKeys, type ObjectStore } from '../../lib/object-store';
import { withHeartbeats } from '../heartbeat';
import { checkedMedia, readText } from '../read-upload';
import type { ExtractTextInput, ExtractTextResult } from './contracts';

/** Bumped when extraction changes, so text cached under the old version is not reused. */
export const TEXT_EXTRACTOR_VERSION = 'unpdf-1';
/** ~100k tokens: beyond this a single extraction call would not fit the model's context with room to answer. */
export const MAX_TEXT_CHARACTERS = 400_000;

export function createExtractText(deps: { store: ObjectStore; maxScannedPages: number }) {
  return async function extractText(input: ExtractTextInput): Promise<ExtractTextResult> {
    const { attempt } = Context.current().info;
    const textKey = `${objectKeys.text(input.tenantId, input.document.sha256)}.${TEXT_EXTRACTOR_VERSION}`;
    // The heartbeat timeout runs from the start, so the download of a large upload is covered too.
    return withHeartbeats(async () => {
      const bytes = await deps.store.getBytes(input.document.key);
      const { contentType, key } = input.document;
      if (isImageMediaType(contentType)) {
        return await visualResult(textKey, attempt, checkedMedia({ key, bytes, mediaType: contentType, pages: 1 }, deps.maxScannedPages));
      }
      // No text type accepts a recording (the door refuses it); a job started by hand with one fails with the reason.
      if (contentType.startsWith('audio/')) throw new InvalidDocumentError(`a recording (${contentType}) has no text to extract`);
      const { text, pages } = await readText(bytes, contentType as 'application/pdf' | 'text/plain');
      if (text.trim().length === 0) {
        if (contentType === 'application/pdf' && pages > 0) {
          // A scan: the model reads the pages themselves (a `document` block) instead of text we do not have.
          return await visualResult(textKey, attempt, checkedMedia({ key, bytes, mediaType: contentType, pages }, deps.maxScannedPages));
        }
        throw new InvalidDocumentError('the document is empty');
      }
      if (text.length > MAX_TEXT_CHARACTERS) {
        throw new DocumentTooLargeError(
          `the document has ${text.length} characters of text; the limit is ${MAX_TEXT_CHARACTERS}`,
        );
      }
      await deps.store.put(textKey, text, { contentType: 'text/plain; charset=utf-8' });
      return { textKey, characters: text.length, pages, attempt };
    });
  };

  /** The text object is written empty, so nothing reads stale text under `textKey`; the model steps read `visual`. */
  async function visualResult(textKey: string, attempt: number, visual: VisualDocument): Promise<ExtractTextResult> {
    await deps.store.put(textKey, '', { contentType: 'text/plain; charset=utf-8' });
    return { textKey, characters: 0, pages: visual.pages, attempt, visual };
  }
}
