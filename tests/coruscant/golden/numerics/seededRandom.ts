/**
 * A tiny seeded generator (mulberry32) for the million-case numeric sweeps, where fast-check's
 * per-run overhead would dominate. The seed is printed so a failure replays with FC_SEED=….
 */
export interface SeededRandom {
  readonly seed: number;
  /** A uniform unsigned 32-bit integer. */
  uint32(): number;
  /** A uniform integer in [0, n). */
  below(n: number): number;
}

export function seededRandom(label: string): SeededRandom {
  const seed = Number(process.env['FC_SEED'] ?? Date.now() % 2 ** 31);
  console.log(`${label}: seed ${seed} (replay with FC_SEED=${seed})`);
  let state = seed >>> 0;
  const uint32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return { seed, uint32, below: (n) => Math.floor((uint32() / 2 ** 32) * n) };
}
