import { createHash } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json';
import type { SubmitReviewInput } from '../common/messages';

/**
 * The id of the workflow Update a review decision is sent as. Temporal deduplicates Updates by id and answers a
 * repeated id with the first Update's outcome, whatever the repeat carried. Naming the Update after the
 * Idempotency-Key alone would let a resend with edited fields (after a 503, say) come back "accepted" while only
 * the first decision counted. So the id is the key plus a digest of the decision itself: the same decision sent
 * again is the same Update (it cannot count twice), and a changed one is a new Update, which the workflow's
 * validator accepts or refuses on its own (409 when the earlier decision was taken).
 */
export function reviewUpdateId(idempotencyKey: string, review: SubmitReviewInput): string {
  const digest = createHash('sha256').update(canonicalJson(review)).digest('hex').slice(0, 32);
  return `review:${idempotencyKey}:${digest}`;
}
