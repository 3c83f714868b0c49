import type { Fp16Matrix } from '../matrix.ts';
import { Random } from './random.ts';
import { checkSparsity, targetZeros } from './sparsity.ts';

/** The FP16 value every kept position holds: sizes depend only on where the nonzeros are. */
const KEPT_VALUE = 0x3c00; // 1.0
const BUCKET_BITS = 16;
const TWO_TO_32 = 0x1_0000_0000;

/** murmur3's 32-bit finaliser: a bijection on 32-bit words with full avalanche. */
function mix32(x: number): number {
  let h = x;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A seeded random priority per position: a keyed bijection of the index (xor, mix, add, mix), so
 * distinct positions (< 2³²) always get distinct priorities — there are no ties to break.
 */
function priorityOf(index: number, key0: number, key1: number): number {
  return mix32((mix32(index ^ key0) + key1) | 0);
}

/** 1 when a < b for unsigned 32-bit a, b — by arithmetic, so no branch to mispredict. */
function lessThan(a: number, b: number): number {
  return Math.floor((a - b) / TWO_TO_32) & 1;
}

/** The priorities of positions base … base + out.length − 1. */
function fillPriorities(out: Float64Array, base: number, key0: number, key1: number): void {
  for (let c = 0; c < out.length; c++) out[c] = priorityOf(base + c, key0, key1);
}

/** One row of a mask: +0 where the priority is below the threshold, 1.0 elsewhere. */
function fillMaskRow(bits: Uint16Array, offset: number, priorities: Float64Array, threshold: number): void {
  for (let c = 0; c < priorities.length; c++) bits[offset + c] = KEPT_VALUE * (1 - lessThan(priorities[c]!, threshold));
}

/**
 * For each zero count, the priority threshold T with exactly that many positions of priority < T.
 * Two passes over the priorities: a histogram of their top 16 bits finds the bucket where each
 * count falls, then that bucket's priorities (~total/65 536 of them) are gathered and sorted.
 */
function thresholdsFor(total: number, zeroCounts: readonly number[], key0: number, key1: number): number[] {
  const histogram = new Uint32Array(2 ** BUCKET_BITS);
  for (let i = 0; i < total; i++) {
    const bucket = priorityOf(i, key0, key1) >>> BUCKET_BITS;
    histogram[bucket] = histogram[bucket]! + 1;
  }
  const boundaries = zeroCounts.map((zeros) => {
    let below = 0;
    let bucket = 0;
    while (bucket < histogram.length && below + histogram[bucket]! <= zeros) below += histogram[bucket++]!;
    return { bucket, rank: zeros - below };
  });
  const wanted = new Map<number, number[]>(
    boundaries.filter((b) => b.bucket < histogram.length).map((b) => [b.bucket, []]),
  );
  const isWanted = new Uint8Array(histogram.length); // a flag test per element; the Map only on hits
  for (const bucket of wanted.keys()) isWanted[bucket] = 1;
  for (let i = 0; i < total; i++) {
    const priority = priorityOf(i, key0, key1);
    if (isWanted[priority >>> BUCKET_BITS] === 1) wanted.get(priority >>> BUCKET_BITS)!.push(priority);
  }
  for (const priorities of wanted.values()) priorities.sort((a, b) => a - b);
  // rank < bucket size always (else the loop above would have moved past the bucket).
  return boundaries.map(({ bucket, rank }) => (bucket < histogram.length ? wanted.get(bucket)![rank]! : TWO_TO_32));
}

/**
 * Seeded, uniformly random unstructured masks with exactly round(s·M·K) zeros, one per requested
 * sparsity, produced together as horizontal strips of `stripRows` rows (the last may be shorter):
 * each yield holds the next strip of every mask, in the order of `sparsities`. Kept positions
 * hold 1.0; streaming means a 9216×9216 matrix never has to be held in memory.
 *
 * Method: every position gets a seeded pseudo-random priority (a keyed 32-bit bijection of its
 * index, so no ties), and a mask zeroes the round(s·M·K) lowest — magnitude pruning of a matrix
 * of random magnitudes. Hence exact counts, masks nested across sparsities (a 70 % mask contains
 * the 50 % mask's zeros), each mask independent of the other sparsities requested and of the
 * strip height, and no per-element loop-carried state: this keeps `gen formats` to seconds.
 * Same (shape, sparsity, seed) → same mask. Requires M·K ≤ 2³².
 */
export function* randomSparseStrips(
  rows: number,
  cols: number,
  sparsities: readonly number[],
  seed: number,
  stripRows: number,
): Generator<Fp16Matrix[]> {
  sparsities.forEach(checkSparsity);
  const total = rows * cols;
  if (total > TWO_TO_32) throw new RangeError(`random masks support up to 2^32 positions, not ${rows}×${cols}`);
  const random = new Random(seed);
  const [key0, key1] = [random.nextUint32() | 0, random.nextUint32() | 0];
  const thresholds = thresholdsFor(
    total,
    sparsities.map((s) => targetZeros(s, total)),
    key0,
    key1,
  );
  const priorities = new Float64Array(cols);
  for (let row0 = 0; row0 < rows; row0 += stripRows) {
    const height = Math.min(stripRows, rows - row0);
    const strips = sparsities.map(() => new Uint16Array(height * cols));
    for (let row = 0; row < height; row++) {
      fillPriorities(priorities, (row0 + row) * cols, key0, key1);
      for (let m = 0; m < strips.length; m++) fillMaskRow(strips[m]!, row * cols, priorities, thresholds[m]!);
    }
    yield strips.map((bits) => ({ rows: height, cols, bits }));
  }
}
