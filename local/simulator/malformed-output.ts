import type { ModelAnswer } from './model-answer';

/**
 * A tool input that breaks the tool's input_schema the way real models occasionally do: an amount as
 * a localised string, a missing required object, an out-of-vocabulary enum value. It lets Slowlane's
 * validate-then-retry-then-review path be exercised end to end.
 */
export function malform(answer: ModelAnswer): ModelAnswer {
  if (answer.kind !== 'tool_use') return answer;
  const input = structuredClone(answer.input) as Record<string, unknown>;
  if (answer.tool === 'record_invoice') {
    const invoice = (input.invoice ?? {}) as Record<string, unknown>;
    const total = typeof invoice.totalAmount === 'number' ? invoice.totalAmount : 12.5;
    invoice.totalAmount = total.toFixed(2).replace('.', ',');
    delete input.confidence;
  } else {
    input.documentType = 'Invoice (probably)';
    input.confidence = 'high';
  }
  return { ...answer, input };
}
