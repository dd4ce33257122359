// A second reporter for `npm test` (stack/test-runner.ts): node's own closing counts as one JSON line, so the
// runner can end its output, after the stack has stopped, with the plain "N passed, N failed, N skipped" line.
// Plain JavaScript: node loads reporters before the tsx loader is in place.
export default async function* testSummary(source) {
  const counts = {};
  for await (const event of source) {
    if (event.type !== 'test:diagnostic' || event.data.nesting !== 0) continue;
    const match = /^(tests|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(event.data.message);
    if (match) counts[match[1]] = Number(match[2]);
  }
  yield `${JSON.stringify(counts)}\n`;
}
