/**
 * A seeded source of numbers in [0, 1) (mulberry32: 32 bits of state, full period, fast): the same
 * seed gives the same stalls and backpressure on every engine and every run, so a failing seed
 * printed by a test replays exactly.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
}
