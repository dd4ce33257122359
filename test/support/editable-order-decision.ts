import { Type } from '@sinclair/typebox';
import { closed, stringEnum } from '../../common/api-contract/schema-kit';
import type { EditableResult } from '../../common/job-types/job-type';
import { FINAL_DECISIONS } from '../../common/job-types/order-score/order-score';
import { orderScoreJobType } from '../../common/job-types/order-score/definition';

/**
 * Preloaded into an extra API process (`node --import`, test/support/extra-api.ts): `order.score` declared, in that
 * process only, as a type whose reviewer edits the decision. Its registry, its reviewer page's bundle and its
 * review route read the declaration from the definition, as they would a real one; the workers are not told.
 */
export const OrderDecision = closed({
  decision: stringEnum(FINAL_DECISIONS, { description: 'What happens to the order.' }),
  reasons: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 10 }),
});

export const ORDER_DECISION_EDITABLE: EditableResult = { component: 'OrderScoreDecision', schema: OrderDecision, startsFrom: 'proposal' };

(orderScoreJobType.reviewer as { editable?: EditableResult }).editable = ORDER_DECISION_EDITABLE;
