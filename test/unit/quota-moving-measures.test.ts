import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { type AdmittedCall, movingFigures, movingTargetsMet, type PhaseEdges } from '../../bench/quota/moving-measure';

/** 60 s at 60,000/min, 60 s lowered to 30,000 (the bucket keeps what was used: -30,000), 60 s restored (+30,000). */
const EDGES: PhaseEdges[] = [
  { name: 'full', startedAt: 0, endedAt: 60_000, inputLimitPerMinute: 60_000, levelAtStart: 4_000, levelAtEnd: 2_000 },
  { name: 'lowered', startedAt: 60_000, endedAt: 120_000, inputLimitPerMinute: 30_000, levelAtStart: -28_000, levelAtEnd: 1_000 },
  { name: 'restored', startedAt: 120_000, endedAt: 180_000, inputLimitPerMinute: 60_000, levelAtStart: 31_000, levelAtEnd: 3_000 },
];

/** `count` answered calls of `tokens` input tokens each, spread over [from, to). */
function calls(from: number, to: number, count: number, tokens: number, status = 200): AdmittedCall[] {
  return Array.from({ length: count }, (_, index) => ({
    admittedAt: from + ((to - from) * index) / count,
    status,
    bucketInputTokens: status === 200 ? tokens : 0,
  }));
}

describe('the moving-limit bench’s figures', () => {
  test('when the fleet spends what each phase offers, then goodput is measured against the ceiling integrated over time', () => {
    // Offered: 4,000 held + 60,000; 30,000 - 30,000 taken by the lowering; 60,000 + 30,000 added by the restore.
    const spent = [...calls(0, 60_000, 62, 1_000), ...calls(60_000, 120_000, 0, 1_000), ...calls(120_000, 180_000, 88, 1_000)];
    const figures = movingFigures(EDGES, spent, { lowered: 800, restored: 600 });
    assert.deepEqual(
      figures.phases.map((phase) => phase.offeredInputTokens),
      [64_000, 0, 90_000],
    );
    assert.equal(figures.offeredInputTokens, 154_000);
    assert.equal(figures.admittedInputTokens, 150_000);
    assert.ok(Math.abs(figures.goodput - 150 / 154) < 1e-9);
    assert.deepEqual(movingTargetsMet(figures), { goodput: true, rate429: true, followMs: true });
  });

  test('when the fleet keeps the old limit after a lowering, then its 429s and an unfollowed change fail the targets', () => {
    const spent = [
      ...calls(0, 60_000, 60, 1_000),
      ...calls(60_000, 120_000, 20, 1_000, 429),
      ...calls(120_000, 180_000, 60, 1_000),
    ];
    const figures = movingFigures(EDGES, spent, { lowered: null, restored: 600 });
    assert.equal(figures.refused429, 20);
    assert.equal(figures.providerCalls, 140);
    assert.deepEqual(movingTargetsMet(figures), { goodput: false, rate429: false, followMs: false });
  });

  test('when a call was admitted before a phase ended, then it counts in that phase even if answered after', () => {
    const figures = movingFigures(EDGES, [{ admittedAt: 59_999, status: 200, bucketInputTokens: 1_000 }], {
      lowered: 0,
      restored: 0,
    });
    assert.deepEqual(
      figures.phases.map((phase) => phase.admittedInputTokens),
      [1_000, 0, 0],
    );
  });
});
