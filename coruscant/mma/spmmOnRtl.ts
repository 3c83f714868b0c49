/**
 * Whole-matrix SpMM on the MmaBench RTL, tiled into Coruscant m32n1k64 MMAs: M in 32-row blocks,
 * K in 64-element chunks, one column of B at a time. Chunks accumulate through C in increasing k
 * (chunk j's D is chunk j + 1's C), which is exactly the order of golden/models/spmm.ts; rows past
 * M and columns past K are zero padding (STC pads partial tiles with zeros) and are discarded.
 * Each K chunk is one engine run over every (block, column) MMA, since its C comes from the last.
 */
import type { Engine } from '../../api/engines.ts';
import type { Fp16Matrix, Fp32Matrix } from '../golden/matrix.ts';
import { MMA_SHAPES } from './registerImages.ts';
import type { MmaJob } from './mmaSchedule.ts';
import { runMmasOnRtl } from './runMmas.ts';

const { m: BLOCK_ROWS, k: CHUNK_K } = MMA_SHAPES.coruscant;

/** The zero-padded 32×64 A tile of row block `block`, K chunk `chunk`. */
function aTile(A: Fp16Matrix, block: number, chunk: number): Fp16Matrix {
  const bits = new Uint16Array(BLOCK_ROWS * CHUNK_K);
  for (let r = 0; r < BLOCK_ROWS && block * BLOCK_ROWS + r < A.rows; r++) {
    const row = block * BLOCK_ROWS + r;
    const k0 = chunk * CHUNK_K;
    bits.set(A.bits.subarray(row * A.cols + k0, row * A.cols + Math.min(A.cols, k0 + CHUNK_K)), r * CHUNK_K);
  }
  return { rows: BLOCK_ROWS, cols: CHUNK_K, bits };
}

/** The zero-padded 64×1 chunk of column `col` of B. */
function bChunk(B: Fp16Matrix, col: number, chunk: number): Fp16Matrix {
  const bits = new Uint16Array(CHUNK_K);
  for (let k = 0; k < CHUNK_K && chunk * CHUNK_K + k < B.rows; k++)
    bits[k] = B.bits[(chunk * CHUNK_K + k) * B.cols + col]!;
  return { rows: CHUNK_K, cols: 1, bits };
}

/** D = A·B + C on the RTL through `engine`, bit-identical to golden spmm. */
export async function spmmOnRtl(engine: Engine, A: Fp16Matrix, B: Fp16Matrix, C: Fp32Matrix): Promise<Fp32Matrix> {
  const blocks = Math.ceil(A.rows / BLOCK_ROWS);
  // K = 0 runs no MMA at all, so D = C exactly as the golden walk of zero steps gives.
  const chunks = Math.ceil(A.cols / CHUNK_K);
  const tiles = Array.from({ length: blocks }, (_, block) =>
    Array.from({ length: chunks }, (_, chunk) => aTile(A, block, chunk)),
  );
  // Accumulators per (block, column), starting from C (zero-padded past M).
  let accumulators = Array.from({ length: blocks * B.cols }, (_, index) => {
    const block = Math.floor(index / B.cols);
    const col = index % B.cols;
    const bits = new Uint32Array(BLOCK_ROWS);
    for (let r = 0; r < BLOCK_ROWS && block * BLOCK_ROWS + r < A.rows; r++)
      bits[r] = C.bits[(block * BLOCK_ROWS + r) * C.cols + col]!;
    return { rows: BLOCK_ROWS, cols: 1, bits } as Fp32Matrix;
  });
  if (accumulators.length > 0) {
    for (let chunk = 0; chunk < chunks; chunk++) {
      const jobs: MmaJob[] = accumulators.map((accumulator, index) => ({
        mode: 'coruscant',
        A: tiles[Math.floor(index / B.cols)]![chunk]!,
        B: bChunk(B, index % B.cols, chunk),
        C: accumulator,
      }));
      accumulators = (await runMmasOnRtl(engine, jobs)).results.map((D) => D!);
    }
  }
  const D = new Uint32Array(A.rows * B.cols);
  accumulators.forEach((accumulator, index) => {
    const block = Math.floor(index / B.cols);
    const col = index % B.cols;
    for (let r = 0; r < BLOCK_ROWS && block * BLOCK_ROWS + r < A.rows; r++)
      D[(block * BLOCK_ROWS + r) * B.cols + col] = accumulator.bits[r]!;
  });
  return { rows: A.rows, cols: B.cols, bits: D };
}
