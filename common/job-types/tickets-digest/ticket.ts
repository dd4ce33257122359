import { type Static, Type } from '@sinclair/typebox';
import { stringEnum } from '../../api-contract/schema-kit';

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

/**
 * One line of a `tickets.digest` input: a support ticket as a help desk exports it. Fields we do not read are
 * allowed (exports carry many), so only the ones the digest uses are held to a shape.
 */
export const Ticket = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    createdAt: Type.String({ format: 'date-time' }),
    priority: stringEnum(TICKET_PRIORITIES),
    subject: Type.String({ minLength: 1, maxLength: 500 }),
    body: Type.String({ maxLength: 20_000 }),
    customer: Type.Optional(Type.String({ maxLength: 200 })),
    channel: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    status: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    tags: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })),
  },
  { additionalProperties: true },
);
export type Ticket = Static<typeof Ticket>;

/** A day's worth is thousands of tickets; past these the file is refused (413) rather than summarised badly. */
export const TICKETS_LIMITS = {
  maxBytes: 16 * 1024 * 1024,
  maxTickets: 20_000,
} as const;
