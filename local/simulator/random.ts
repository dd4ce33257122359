/** A source of uniform numbers in [0, 1). */
export interface Random {
  next(): number;
}

/** mulberry32: tiny, fast and good enough to make seeded fault runs repeat exactly. */
function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return {
    next(): number {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** Seeded when a seed is given; otherwise Math.random. `stream` separates uses that must not disturb each other. */
export function createRandom(seed: number | null, stream = 0): Random {
  if (seed === null) return { next: () => Math.random() };
  return mulberry32(seed ^ Math.imul(stream + 1, 0x9e3779b1));
}
