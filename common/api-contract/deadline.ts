import { Type } from '@sinclair/typebox';

/** `deadline` of `POST /jobs`, in the JSON body and the multipart form alike: one schema for both. */
export const Deadline = Type.String({
  format: 'date-time',
  description:
    'When the result is due. A `bulk` job’s model calls take the Message Batches lane (half the price, minutes to hours) unless this leaves too little time, then the live path (docs/gateway.md#the-batch-lane).',
});
