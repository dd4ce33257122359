import assert from '../support/assert';
import { describe, test } from '@jest/globals';
import { cutPoints, planCallChunks } from '../../common/job-types/call/chunk-plan';
import { joinChunkTranscripts, lowConfidenceReason, toWebVtt, transcriptConfidence } from '../../common/job-types/call/transcript';

const SETTINGS = { chunkSeconds: 600, overlapSeconds: 2 };

describe('where a call is cut', () => {
  test('when a call is shorter than a chunk and a quarter, then it is not cut', () => {
    assert.deepEqual(cutPoints(740, [{ start: 300, end: 301 }], SETTINGS), []);
  });

  test('when silences lie near the targets, then each cut is the middle of the nearest silence', () => {
    const silences = [
      { start: 100, end: 101 },
      { start: 560, end: 561 },
      { start: 610, end: 612 },
      { start: 1190, end: 1191 },
    ];
    assert.deepEqual(cutPoints(1800, silences, SETTINGS), [611, 1190.5]);
  });

  test('when no silence is within a quarter chunk of the target, then the cut falls on the target', () => {
    assert.deepEqual(cutPoints(1300, [{ start: 100, end: 101 }], SETTINGS), [600]);
  });

  test('when chunks are planned, then each owns the span between its cuts and hears the overlap on both sides', () => {
    const chunks = planCallChunks(1300, [600, 1200], 2, (index) => `k${index}`);
    assert.deepEqual(
      chunks.map(({ start, end, ownStart, ownEnd }) => [start, end, ownStart, ownEnd]),
      [
        [0, 602, 0, 600],
        [598, 1202, 600, 1200],
        [1198, 1300, 1200, 1300],
      ],
    );
  });
});

describe('joining the chunks’ transcripts', () => {
  test('when a line is heard in the overlap of two chunks, then it appears once, timed from the call’s start', () => {
    const joined = joinChunkTranscripts(20, [
      { chunk: { index: 1, start: 9, ownStart: 10, ownEnd: 20 }, segments: [{ start: 0, end: 2, text: 'across the cut' }, { start: 4, end: 6, text: 'second' }] },
      { chunk: { index: 0, start: 0, ownStart: 0, ownEnd: 10 }, segments: [{ start: 1, end: 3, text: 'first' }, { start: 9, end: 11, text: 'across the cut' }] },
    ]);
    assert.deepEqual(
      joined.segments.map(({ start, end, text }) => [start, end, text]),
      [
        [1, 3, 'first'],
        [9, 11, 'across the cut'],
        [13, 15, 'second'],
      ],
    );
    assert.equal(joined.text, 'first across the cut second');
  });

  test('when the transcript is written as WebVTT, then each segment is a cue with its speaker and escaped text', () => {
    const vtt = toWebVtt({ durationSeconds: 4000, text: '', segments: [{ start: 3661.5, end: 3663, text: 'a < b --> c', speaker: 'A' }] });
    assert.equal(vtt, 'WEBVTT\n\n01:01:01.500 --> 01:01:03.000\n<v A>a &lt; b -> c\n');
  });
});

describe('how well a call was heard', () => {
  test('when segments carry confidences, then the call’s is their mean weighted by audio time, and those below the line are counted', () => {
    const heard = transcriptConfidence(
      [
        { start: 0, end: 9, text: 'a long clear answer', confidence: 0.9 },
        { start: 9, end: 10, text: 'mumbled', confidence: 0.3 },
        { start: 10, end: 12, text: 'no confidence given' },
      ],
      0.6,
    );
    // (9 × 0.9 + 1 × 0.3) / 10: the unrated segment counts for nothing.
    assert.deepEqual(heard, { confidence: 0.84, lowConfidenceSegments: 1 });
  });

  test('when no segment carries a confidence, then the call has none and never goes to review for it', () => {
    const heard = transcriptConfidence([{ start: 0, end: 5, text: 'hello' }], 0.6);
    assert.deepEqual(heard, { lowConfidenceSegments: 0 });
    assert.equal(lowConfidenceReason({ ...heard, reviewConfidence: 0.6 }), undefined);
  });

  test('when the call’s confidence is below the review line, then the reason names both; at the line or above there is none', () => {
    assert.equal(lowConfidenceReason({ confidence: 0.41, reviewConfidence: 0.6 }), 'transcription confidence 0.41 below 0.60');
    assert.equal(lowConfidenceReason({ confidence: 0.6, reviewConfidence: 0.6 }), undefined);
    assert.equal(lowConfidenceReason({ confidence: 0.41 }), undefined);
  });
});
