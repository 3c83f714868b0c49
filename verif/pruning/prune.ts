import type { Fp16Matrix } from '../matrix.ts';
import { fp16ToNumber } from '../numerics/fp16.ts';
import { checkSparsity, targetZeros } from './sparsity.ts';

/**
 * Unstructured pruning of FP16 weights (A = W, M output rows × K input columns) to an exact
 * target sparsity. Both pruners zero (bits 0x0000) the lowest-scoring entries of a group:
 *
 * - magnitude: score |W_ij|, one group = the whole matrix, exactly round(s·M·K) zeros;
 * - Wanda (Sun et al., ICLR 2024): score |W_ij|·‖X_j‖₂ with ‖X_j‖₂ the activation norm of input
 *   channel j, one group per output row (Wanda's comparison group), exactly round(s·K) zeros in
 *   every row.
 *
 * Ties are broken by index (lower row-major index pruned first), so results are deterministic.
 * Existing zeros (±0) score 0 and are pruned first; the result then has exactly the target count
 * of 0x0000 entries unless the input already held more +0 entries than that. NaN scores rank
 * above everything (kept), so a NaN weight is never silently turned into a zero.
 */

/** Scores sortable as numbers: NaN moves to +∞ so it ranks highest. */
function rankable(score: number): number {
  return Number.isNaN(score) ? Infinity : score;
}

/** Zeroes, in `bits`, the `count` lowest-scoring positions among `positions`, ties by index. */
function pruneLowest(bits: Uint16Array, positions: Uint32Array, scores: Float64Array, count: number): void {
  const order = Array.from(positions).sort((a, b) => scores[a]! - scores[b]! || a - b);
  for (let i = 0; i < count; i++) bits[order[i]!] = 0;
}

/** Magnitude pruning: exactly round(s·M·K) zeros over the whole matrix. */
export function magnitudePrune(weights: Fp16Matrix, sparsity: number): Fp16Matrix {
  checkSparsity(sparsity);
  const count = weights.bits.length;
  const scores = Float64Array.from(weights.bits, (b) => rankable(Math.abs(fp16ToNumber(b))));
  const bits = weights.bits.slice();
  pruneLowest(bits, Uint32Array.from({ length: count }, (_, i) => i), scores, targetZeros(sparsity, count));
  return { rows: weights.rows, cols: weights.cols, bits };
}

/** Wanda pruning: exactly round(s·K) zeros in every output row; `activationNorms[j]` = ‖X_j‖₂. */
export function wandaPrune(weights: Fp16Matrix, activationNorms: ArrayLike<number>, sparsity: number): Fp16Matrix {
  checkSparsity(sparsity);
  const { rows, cols } = weights;
  if (activationNorms.length !== cols) {
    throw new RangeError(`Wanda needs one activation norm per input channel: ${cols} columns, ${activationNorms.length} norms`);
  }
  const scores = Float64Array.from(weights.bits, (b, i) => rankable(Math.abs(fp16ToNumber(b)) * activationNorms[i % cols]!));
  const bits = weights.bits.slice();
  const perRow = targetZeros(sparsity, cols);
  for (let row = 0; row < rows; row++) {
    pruneLowest(bits, Uint32Array.from({ length: cols }, (_, c) => row * cols + c), scores, perRow);
  }
  return { rows, cols, bits };
}
