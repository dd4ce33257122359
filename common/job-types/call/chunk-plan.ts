import type { CallChunk } from './call-job';

/** A stretch of silence ffmpeg's silencedetect found, in seconds from the call's start. */
export interface Silence {
  start: number;
  end: number;
}

export interface ChunkPlanSettings {
  chunkSeconds: number;
  overlapSeconds: number;
}

/** A cut moves to a silence at most this share of the chunk length away from its target. */
const SEARCH_SHARE = 0.25;

/**
 * Where a call is cut: near every `chunkSeconds`, in the middle of the nearest silence within a quarter of a chunk
 * (no word is split there), else at the target itself (a monologue; the overlap then keeps the word whole in one
 * neighbour). A last piece shorter than a quarter chunk joins the one before. Returns the cut points, ascending.
 */
export function cutPoints(durationSeconds: number, silences: readonly Silence[], settings: ChunkPlanSettings): number[] {
  const { chunkSeconds } = settings;
  const window = chunkSeconds * SEARCH_SHARE;
  const cuts: number[] = [];
  let from = 0;
  while (durationSeconds - from > chunkSeconds + window) {
    const target = from + chunkSeconds;
    let best: number | undefined;
    for (const silence of silences) {
      const middle = (silence.start + silence.end) / 2;
      if (middle <= from + window || Math.abs(middle - target) > window) continue;
      if (best === undefined || Math.abs(middle - target) < Math.abs(best - target)) best = middle;
    }
    const cut = round(best ?? target);
    cuts.push(cut);
    from = cut;
  }
  return cuts;
}

/** The chunks between the cuts, each with the overlap on both sides (clipped to the call). */
export function planCallChunks(durationSeconds: number, cuts: readonly number[], overlapSeconds: number, keyOf: (index: number) => string): CallChunk[] {
  const bounds = [0, ...cuts, durationSeconds];
  return bounds.slice(0, -1).map((ownStart, index) => {
    const ownEnd = bounds[index + 1] ?? durationSeconds;
    return {
      index,
      key: keyOf(index),
      start: round(Math.max(0, ownStart - overlapSeconds)),
      end: round(Math.min(durationSeconds, ownEnd + overlapSeconds)),
      ownStart,
      ownEnd,
    };
  });
}

const round = (seconds: number): number => Math.round(seconds * 1000) / 1000;
