import type { Fp16Matrix } from '../matrix.ts';

/**
 * The Coruscant software-kernel format (docs/spec.md §3.1, paper Fig. 7–8), byte-compatible with the public
 * reference encoder `InitSparseMatrixA_API_bmp_real` (dhjoo98/coruscant), so files interoperate
 * with the CUDA kernel:
 *
 * - tiles are 64×1 column tiles (rows 64·i … 64·i+63 of column k), ordered row-block outer,
 *   column inner: tile t = i·cols + k;
 * - one uint64 bitmap per tile, MSB first (tile row r ↔ bit 63−r), because the kernel walks it
 *   with count-leading-zeros;
 * - the tile's nonzeros in row order, two FP16 per uint32 (first in the low half), padded with
 *   zero halves to a multiple of 8 halves so one 16-byte LDG.128 serves them;
 * - offsets: tiles+1 uint32 entries, a prefix sum in units of uint32, entry 0 = 0.
 *
 * Deviations from the reference, both forced by docs/spec.md: an element is zero iff its bits are 0x0000
 * (the reference tests `__half2float(v) != 0`, which also drops −0; we keep −0 = 0x8000 as a
 * value so round trips are bit-exact), and M need not be a multiple of 64 (the last row block is
 * padded with zero rows; the reference's `rows / 64` silently drops the partial block).
 * `cudaReferenceMatrix` undoes both, so encoding its result gives the reference's bytes
 * (`gen formats encode --compat cuda`).
 */
export interface KernelFormat {
  readonly rows: number;
  readonly cols: number;
  /** One per tile, tile t = rowBlock·cols + column. */
  readonly bitmaps: BigUint64Array;
  /** tiles + 1 entries; tile t's words are values[offsets[t] … offsets[t+1]). */
  readonly offsets: Uint32Array;
  /** Packed FP16 pairs, low half first, each tile padded to a multiple of 4 words (8 halves). */
  readonly values: Uint32Array;
}

/** Rows per tile: one bit of the uint64 bitmap per row. */
export const KERNEL_TILE_ROWS = 64;
/** Padding granule of each tile's nonzeros, in halves: one 16-byte vector load. */
export const KERNEL_PAD_HALVES = 8;

/** Number of 64-row blocks: M rounded up, the padded rows being zero. */
export function kernelRowBlocks(rows: number): number {
  return Math.ceil(rows / KERNEL_TILE_ROWS);
}

/** uint32 words a tile with `nonzeros` values occupies, padding included. */
export function kernelTileWords(nonzeros: number): number {
  return Math.ceil(nonzeros / KERNEL_PAD_HALVES) * (KERNEL_PAD_HALVES / 2);
}

/** Bytes of the three arrays as the CUDA kernel loads them (header not counted). */
export function kernelFormatBytes(format: KernelFormat): number {
  return format.bitmaps.byteLength + format.offsets.byteLength + format.values.byteLength;
}

/** Bitmap bit for tile row r, MSB first. */
function rowBit(row: number): bigint {
  return 1n << BigInt(KERNEL_TILE_ROWS - 1 - row);
}

/** Encodes a dense FP16 matrix (any shape) into the kernel format. */
export function encodeKernelFormat(matrix: Fp16Matrix): KernelFormat {
  const { rows, cols, bits } = matrix;
  const rowBlocks = kernelRowBlocks(rows);
  const tiles = rowBlocks * cols;
  // The bitmap is assembled from two 32-bit halves so the hot loop stays branch-free plain-number
  // code rather than BigInt; popcounts of the halves then size the value array exactly.
  const high = new Uint32Array(tiles);
  const low = new Uint32Array(tiles);
  for (let row = 0; row < rows; row++) {
    const tileBase = Math.floor(row / KERNEL_TILE_ROWS) * cols;
    const r = row % KERNEL_TILE_ROWS;
    const shift = r < 32 ? 31 - r : 63 - r;
    const halves = r < 32 ? high : low;
    const rowBase = row * cols;
    for (let col = 0; col < cols; col++) {
      halves[tileBase + col] = halves[tileBase + col]! | (Number(bits[rowBase + col] !== 0) << shift);
    }
  }
  const bitmaps = new BigUint64Array(tiles);
  const offsets = new Uint32Array(tiles + 1);
  for (let tile = 0; tile < tiles; tile++) {
    bitmaps[tile] = (BigInt(high[tile]!) << 32n) | BigInt(low[tile]!);
    offsets[tile + 1] = offsets[tile]! + kernelTileWords(popcount32(high[tile]!) + popcount32(low[tile]!));
  }
  const values = new Uint32Array(offsets[tiles]!);
  // Scatter in row-major order (cache friendly); per tile, rows arrive in increasing order, so
  // each tile's values land in row order as the format requires.
  const filled = new Uint32Array(tiles);
  for (let row = 0; row < rows; row++) {
    const block = Math.floor(row / KERNEL_TILE_ROWS);
    for (let col = 0; col < cols; col++) {
      const half = bits[row * cols + col]!;
      if (half === 0) continue;
      const tile = block * cols + col;
      const slot = filled[tile]!;
      filled[tile] = slot + 1;
      const word = offsets[tile]! + (slot >> 1);
      values[word] = (values[word]! | (slot & 1 ? half << 16 : half)) >>> 0;
    }
  }
  return { rows, cols, bitmaps, offsets, values };
}

/** The FP16 halves of tile t, in row order (padding excluded). */
export function kernelTileValues(format: KernelFormat, tile: number): Uint16Array {
  const nonzeros = popcount64(format.bitmaps[tile]!);
  const start = format.offsets[tile]!;
  const out = new Uint16Array(nonzeros);
  for (let v = 0; v < nonzeros; v++) {
    const word = format.values[start + (v >> 1)]!;
    out[v] = v & 1 ? word >>> 16 : word & 0xffff;
  }
  return out;
}

/** Decodes the kernel format back into the dense matrix (bit-exact inverse of encodeKernelFormat). */
export function decodeKernelFormat(format: KernelFormat): Fp16Matrix {
  const { rows, cols, bitmaps } = format;
  const bits = new Uint16Array(rows * cols);
  for (let tile = 0; tile < bitmaps.length; tile++) {
    const block = Math.floor(tile / cols);
    const col = tile % cols;
    const bitmap = bitmaps[tile]!;
    const tileValues = kernelTileValues(format, tile);
    let v = 0;
    for (let r = 0; r < KERNEL_TILE_ROWS; r++) {
      if ((bitmap & rowBit(r)) === 0n) continue;
      const row = block * KERNEL_TILE_ROWS + r;
      bits[row * cols + col] = tileValues[v++]!;
    }
  }
  return { rows, cols, bits };
}

/** Number of set bits of a 64-bit bitmap. */
export function popcount64(bitmap: bigint): number {
  return popcount32(Number(bitmap & 0xffffffffn)) + popcount32(Number(bitmap >> 32n));
}

/** Number of set bits of a 32-bit word. */
export function popcount32(word: number): number {
  let x = word >>> 0;
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** What making a matrix encodable exactly as the reference encoder would changed. */
export interface CudaReferenceMatrix {
  /** The matrix the reference encodes: −0 turned into +0, rows past the last full 64-row block dropped. */
  readonly matrix: Fp16Matrix;
  /** Elements that were −0 (0x8000), now 0x0000: the reference treats them as zero. */
  readonly negativeZeros: number;
  /** Rows of a partial last row block (M mod 64), not in `matrix`. */
  readonly droppedRows: number;
}

/**
 * The matrix as `InitSparseMatrixA_API_bmp_real` sees it: its zero test `__half2float(v) != 0`
 * also drops −0, and its `rows / 64` tile count leaves out a partial last row block.
 * `encodeKernelFormat` of the result is byte for byte the reference encoder's output.
 */
export function cudaReferenceMatrix(matrix: Fp16Matrix): CudaReferenceMatrix {
  const rows = Math.floor(matrix.rows / KERNEL_TILE_ROWS) * KERNEL_TILE_ROWS;
  const bits = matrix.bits.slice(0, rows * matrix.cols);
  let negativeZeros = 0;
  for (let i = 0; i < bits.length; i++) {
    if (bits[i] === 0x8000) {
      bits[i] = 0;
      negativeZeros++;
    }
  }
  return { matrix: { rows, cols: matrix.cols, bits }, negativeZeros, droppedRows: matrix.rows - rows };
}
