import type { Fp16Matrix } from '../matrix.ts';
import { Random } from './random.ts';
import { checkSparsity, targetZeros } from './sparsity.ts';

/** The FP16 value every kept position holds: sizes depend only on where the nonzeros are. */
const KEPT_VALUE = 0x3c00; // 1.0

/**
 * A seeded random unstructured mask with exactly round(s·M·K) zeros over the whole matrix,
 * produced as horizontal strips of `stripRows` rows (the last may be shorter) so a 9216×9216
 * matrix streams through the size model without being held in memory. Kept positions hold 1.0.
 *
 * The mask is stratified by strip: strip i gets round(s·end_i) − round(s·start_i) zeros (start/end
 * in elements), placed uniformly inside the strip by rejection sampling of the minority class —
 * at most ~0.7 random draws per element instead of one, which is what keeps `gen formats` fast.
 * Strips of ≥ 10⁵ elements make the difference from an unstratified uniform mask immaterial to
 * any size. Same (shape, sparsity, seed, stripRows) → same matrix.
 */
export function* randomSparseStrips(rows: number, cols: number, sparsity: number, seed: number, stripRows: number): Generator<Fp16Matrix> {
  checkSparsity(sparsity);
  const random = new Random(seed);
  for (let row0 = 0; row0 < rows; row0 += stripRows) {
    const stripHeight = Math.min(stripRows, rows - row0);
    const start = row0 * cols;
    const size = stripHeight * cols;
    const zeros = targetZeros(sparsity, start + size) - targetZeros(sparsity, start);
    // Mark whichever class is smaller, so rejection retries stay few.
    const markZeros = zeros <= size / 2;
    const bits = new Uint16Array(size).fill(markZeros ? KEPT_VALUE : 0);
    const marked = markZeros ? 0 : KEPT_VALUE;
    for (let placed = 0; placed < (markZeros ? zeros : size - zeros); ) {
      const position = random.nextInt(size);
      if (bits[position] === marked) continue;
      bits[position] = marked;
      placed += 1;
    }
    yield { rows: stripHeight, cols, bits };
  }
}
