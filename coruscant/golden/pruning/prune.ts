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

/** Orders scores ascending with NaN above everything, +∞ included. */
function compareScores(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number(Number.isNaN(a)) - Number(Number.isNaN(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An FP16 pattern's magnitude as an integer that orders like |w|, NaNs (0x7C01…) above ∞ (0x7C00). */
function magnitudeKey(bits: number): number {
  return bits & 0x7fff;
}

/**
 * Magnitude pruning: exactly round(s·M·K) zeros over the whole matrix. FP16 magnitudes have only
 * 2¹⁵ keys, so a counting pass finds the threshold key in linear time: everything below it is
 * pruned, and at the threshold the lowest indices make up the exact count.
 */
export function magnitudePrune(weights: Fp16Matrix, sparsity: number): Fp16Matrix {
  checkSparsity(sparsity);
  const bits = weights.bits.slice();
  const histogram = new Float64Array(0x8000);
  for (const b of bits) histogram[magnitudeKey(b)]! += 1;
  let remaining = targetZeros(sparsity, bits.length);
  let threshold = 0;
  while (threshold < histogram.length && histogram[threshold]! <= remaining) remaining -= histogram[threshold++]!;
  for (let i = 0; i < bits.length; i++) {
    const key = magnitudeKey(bits[i]!);
    if (key < threshold || (key === threshold && remaining-- > 0)) bits[i] = 0;
  }
  return { rows: weights.rows, cols: weights.cols, bits };
}

/** Wanda pruning: exactly round(s·K) zeros in every output row; `activationNorms[j]` = ‖X_j‖₂. */
export function wandaPrune(weights: Fp16Matrix, activationNorms: ArrayLike<number>, sparsity: number): Fp16Matrix {
  checkSparsity(sparsity);
  const { rows, cols } = weights;
  if (activationNorms.length !== cols) {
    throw new RangeError(
      `Wanda needs one activation norm per input channel: ${cols} columns, ${activationNorms.length} norms`,
    );
  }
  const bits = weights.bits.slice();
  const perRow = targetZeros(sparsity, cols);
  const scores = new Float64Array(cols);
  const order = Array.from({ length: cols }, (_, c) => c);
  for (let row = 0; row < rows; row++) {
    const base = row * cols;
    for (let c = 0; c < cols; c++) scores[c] = Math.abs(fp16ToNumber(bits[base + c]!)) * activationNorms[c]!;
    order.sort((a, b) => compareScores(scores[a]!, scores[b]!) || a - b);
    for (let i = 0; i < perRow; i++) bits[base + order[i]!] = 0;
  }
  return { rows, cols, bits };
}
