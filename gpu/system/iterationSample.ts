import { mulberry32 } from '../memory/seededRandom.ts';

/**
 * Which block-iterations a sampled run simulates in the memory model, and when.
 *
 * The full run issues every SM's q-th block-iteration in round q. Simulating only the first rounds
 * (the old sampling) sees a handful of K-tile columns per split: their rows land on a few DRAM
 * banks, the busiest bank's backlog sets the makespan, and scaling that by the sample's inverse
 * fraction overstated the 9216×9216 dense kernel by 1.7–2.3×. In the full run the open-loop queues
 * average those hot spots out over all rounds, so the sample has to cover all rounds as well:
 *
 * - the iterations in issue order (round, then SM) are cut into equal strata and one iteration is
 *   drawn at random from each (stratified, so every part of the grid — every round, SM, row block
 *   and K tile region — is represented in proportion; random within the stratum, so a stride
 *   cannot alias with the 142-SM or row-block period);
 * - each is issued by its own SM at its full-run time compressed by the sampling factor, so
 *   requests arrive at the full run's rate: a memory-bound kernel queues as it does in the full
 *   run, an issue-bound one spans its rounds / factor, and (makespan − latency) / fraction
 *   estimates both. The fraction is exact: drawn iterations / all iterations.
 */

/** One block-iteration of the grid, in the full run's issue order. */
export interface GridIteration {
  readonly sm: number;
  readonly round: number;
  readonly rowBlock: number;
  readonly kTile: number;
}

/** A sample of the grid's block-iterations. */
export interface IterationSample {
  /** The drawn iterations, in issue order. */
  readonly picks: readonly GridIteration[];
  /** Iterations in the whole grid. */
  readonly total: number;
  /** Multiply a full-run time by this to get the sampled run's issue time (picks / total). */
  readonly timeScale: number;
}

/** Stratified sample seed: fixed, so a sampled run is deterministic. */
const SAMPLE_SEED = 0x5eed;

/**
 * About 1/`sample` of the iterations in `sequences` (per SM, its [rowBlock, kTile] in issue order):
 * one drawn from each of ⌈total / sample⌉ equal strata of the issue order; all when `sample` ≤ 1.
 */
export function sampleIterations(
  sequences: ReadonlyArray<ReadonlyArray<readonly [number, number]>>,
  sample: number,
): IterationSample {
  const all: GridIteration[] = [];
  const rounds = Math.max(0, ...sequences.map((s) => s.length));
  for (let round = 0; round < rounds; round++) {
    for (const [sm, sequence] of sequences.entries()) {
      const item = sequence[round];
      if (item !== undefined) all.push({ sm, round, rowBlock: item[0], kTile: item[1] });
    }
  }
  const total = all.length;
  const strata = sample <= 1 ? total : Math.ceil(total / sample);
  if (strata === total) return { picks: all, total, timeScale: 1 };
  const random = mulberry32(SAMPLE_SEED);
  const picks = Array.from({ length: strata }, (_, j) => {
    const first = Math.floor((j * total) / strata);
    const end = Math.floor(((j + 1) * total) / strata);
    return all[first + Math.floor(random() * (end - first))]!;
  });
  return { picks, total, timeScale: strata / total };
}
