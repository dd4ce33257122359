/**
 * `write_digest_narrative`: a few sentences built from the fact lines the worker sends (`kind | values`), so the
 * narrative names the real volume, the largest themes and the first urgent ticket of the input.
 */
export function writeDigestNarrative(documentText: string): object {
  const facts = documentText.split('\n').map((line) => line.split(' | ').map((part) => part.trim()));
  const values = (kind: string) => facts.filter((fact) => fact[0] === kind).map((fact) => fact.slice(1));
  const [tickets] = values('tickets');
  const themes = values('theme').slice(0, 3);
  const urgentCount = values('urgent-count')[0]?.[0] ?? '0';
  const [firstUrgent] = values('urgent');
  const sentences = [
    tickets ? `${tickets[0]} tickets arrived between ${tickets[1]} and ${tickets[2]}.` : 'No ticket figures were given.',
    themes.length > 0
      ? `The main themes were ${themes.map(([name, count]) => `${name} (${count})`).join(', ')}.`
      : 'No theme stood out.',
    firstUrgent
      ? `${urgentCount} tickets need a person today, first ${firstUrgent[0]}: "${firstUrgent[1] ?? ''}".`
      : 'No ticket is urgent.',
  ];
  return { narrative: sentences.join(' ').slice(0, 2000) };
}
