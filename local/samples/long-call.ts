import type { CallLine } from './spoken-call';

/**
 * Turns of a support call, in the plain words a small speech model knows: a long call is these in a seeded order,
 * each speaker keeping to their side, so an hour of it reads like a conversation that goes round a few times.
 */
const AGENT_TURNS = [
  'Thank you for calling. How can I help you today?',
  'Can you give me the order number, please?',
  'Thank you. I can see the order here.',
  'The parcel left our warehouse on Monday.',
  'I am sorry for the wait. Let me check with the driver.',
  'I can change the delivery date for you.',
  'What day would work best for you?',
  'I will send you an email with the new date.',
  'Is there anything else I can help you with?',
  'I have added a note to your account.',
  'The refund will reach your bank in five days.',
  'Let me read that back to you to make sure it is right.',
];

const CUSTOMER_TURNS = [
  'Hello. I am calling about my order.',
  'The number is four five two seven one.',
  'It was meant to arrive last week, but nothing came.',
  'Can you tell me where it is now?',
  'I would like it on Friday morning if that is possible.',
  'Friday is good. I will be at home all day.',
  'I also want to change the address on my account.',
  'The new address is twelve Park Road.',
  'Yes, that is right. Thank you.',
  'Could I get a refund for the delivery charge?',
  'No, that is all for now.',
  'Thank you for your help. Goodbye.',
];

/** espeak-ng at `-s 150`, with the pause between turns: about 2.5 words a second (measured: 60 minutes of these turns at 2.4 came out 56.9). */
const WORDS_PER_SECOND = 2.53;

/** A two-person call of about `minutes` minutes: the agent (A) and the customer (B) take turns, in a seeded order. */
export function longCallScript(minutes: number, seed = 7): CallLine[] {
  let state = seed >>> 0 || 1;
  // xorshift32: the same call for the same seed, on every machine.
  const next = (size: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % size;
  };
  const lines: CallLine[] = [];
  let seconds = 0;
  while (seconds < minutes * 60) {
    const speaker = lines.length % 2 === 0 ? 'A' : 'B';
    const turns = speaker === 'A' ? AGENT_TURNS : CUSTOMER_TURNS;
    const text = turns[next(turns.length)] as string;
    lines.push({ speaker, text });
    seconds += text.split(/\s+/).length / WORDS_PER_SECOND;
  }
  return lines;
}
