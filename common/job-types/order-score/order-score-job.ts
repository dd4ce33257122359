import type { JobState, JsonJobInput } from '../../job';
import type { OrderScoreInput } from './order-score';

/** An order.score job's start: the common start, the order, and the grey zone when the deployment overrides it. */
export type OrderScoreJobInput = JsonJobInput<OrderScoreInput>;

/** What an order's `status` query shows: the common job state (the order as `input`, the model's `proposal`). */
export type OrderScoreJobState = JobState;
