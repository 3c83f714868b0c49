import {
  encodeKernelFormat,
  kernelTileWords,
  KERNEL_TILE_ROWS,
  popcount32,
} from '../../coruscant/golden/formats/kernelFormat.ts';
import {
  encodeTiledCsl,
  TILED_CSL_OFFSET_PADDING,
  TILED_CSL_TILE_COLS,
  TILED_CSL_TILE_ROWS,
  tiledCslTileItems,
  TILED_CSL_VECTOR_ITEMS,
} from '../../coruscant/golden/formats/tiledCsl.ts';
import type { Fp16Matrix } from '../../coruscant/golden/matrix.ts';
import { mulberry32 } from '../memory/seededRandom.ts';
import { checkSparsity } from '../../coruscant/golden/pruning/sparsity.ts';

/**
 * Where a pruned weight matrix's bytes are in each format: the arrays the kernels index. Both
 * formats' index arrays are functions of the nonzero pattern alone, i.e. of the kernel format's
 * bitmaps: the kernel offsets are the prefix sum of each tile's padded word count, and a Tiled-CSL
 * tile's item count is the padded popcount of the 2 × 64 bitmaps it spans. So a layout is built
 * from bitmaps — those of encodeKernelFormat for a given matrix, or drawn directly for a seeded
 * random mask, so that a 9216×9216 matrix never has to exist (tests check the arrays equal the
 * real encoders' on the same matrices). Values are not kept: traces need addresses, not data.
 */
export interface SparseWeightLayout {
  readonly m: number;
  readonly k: number;
  readonly nonzeros: number;
  /** Coruscant kernel format (docs/spec.md §3.1): bitmaps and offsets as encodeKernelFormat makes them, and the values array's length. */
  readonly kernel: {
    readonly bitmapHi: Uint32Array;
    readonly bitmapLo: Uint32Array;
    readonly offsets: Uint32Array;
    readonly valueWords: number;
  };
  /** Flash-LLM Tiled-CSL: tileOffsets as encodeTiledCsl makes them (units of 4 items) and the item count. */
  readonly tiledCsl: { readonly tileOffsets: Int32Array; readonly items: number };
}

/** Bytes of the kernel format's bitmaps + offsets + values (kernelFormatBytes of the full encoding). */
export function kernelLayoutBytes(layout: SparseWeightLayout): number {
  return 8 * layout.kernel.bitmapHi.length + layout.kernel.offsets.byteLength + 4 * layout.kernel.valueWords;
}

/** Bytes of Tiled-CSL's items + tileOffsets (tiledCslBytes of the full encoding). */
export function tiledCslLayoutBytes(layout: SparseWeightLayout): number {
  return 4 * layout.tiledCsl.items + layout.tiledCsl.tileOffsets.byteLength;
}

/** Nonzeros of kernel tile t. */
export function tileNonzeros(layout: SparseWeightLayout, tile: number): number {
  return popcount32(layout.kernel.bitmapHi[tile]!) + popcount32(layout.kernel.bitmapLo[tile]!);
}

const nonzeroCounts = new WeakMap<SparseWeightLayout, Uint8Array>();

/** Nonzeros of every kernel tile (computed once per layout; traces and costs read it per lane and step). */
export function tileNonzeroCounts(layout: SparseWeightLayout): Uint8Array {
  let counts = nonzeroCounts.get(layout);
  if (counts === undefined) {
    counts = new Uint8Array(layout.kernel.bitmapHi.length);
    for (let t = 0; t < counts.length; t++) counts[t] = tileNonzeros(layout, t);
    nonzeroCounts.set(layout, counts);
  }
  return counts;
}

/** The layout of M×K bitmaps given as MSB-first halves (bit 31 of hi = tile row 0), tile t = rowBlock·K + column. */
export function layoutFromBitmaps(
  m: number,
  k: number,
  bitmapHi: Uint32Array,
  bitmapLo: Uint32Array,
): SparseWeightLayout {
  const rowBlocks = Math.ceil(m / KERNEL_TILE_ROWS);
  const tiles = rowBlocks * k;
  if (bitmapHi.length !== tiles || bitmapLo.length !== tiles)
    throw new RangeError(`need ${tiles} bitmaps for ${m}×${k}`);
  const offsets = new Uint32Array(tiles + 1);
  const tileCols = Math.ceil(k / TILED_CSL_TILE_COLS);
  const blocksPerCslTile = TILED_CSL_TILE_ROWS / KERNEL_TILE_ROWS;
  const cslRows = Math.ceil(m / TILED_CSL_TILE_ROWS);
  const cslNonzeros = new Uint32Array(cslRows * tileCols);
  let nonzeros = 0;
  for (let t = 0; t < tiles; t++) {
    const count = popcount32(bitmapHi[t]!) + popcount32(bitmapLo[t]!);
    nonzeros += count;
    offsets[t + 1] = offsets[t]! + kernelTileWords(count);
    const rowBlock = Math.floor(t / k);
    const column = t % k;
    const cslTile = Math.floor(rowBlock / blocksPerCslTile) * tileCols + Math.floor(column / TILED_CSL_TILE_COLS);
    cslNonzeros[cslTile] = cslNonzeros[cslTile]! + count;
  }
  const tileOffsets = new Int32Array(cslNonzeros.length + TILED_CSL_OFFSET_PADDING);
  for (let t = 0; t < cslNonzeros.length; t++)
    tileOffsets[t + 1] = tileOffsets[t]! + tiledCslTileItems(cslNonzeros[t]!) / TILED_CSL_VECTOR_ITEMS;
  tileOffsets[cslNonzeros.length + 1] = tileOffsets[cslNonzeros.length]!;
  return {
    m,
    k,
    nonzeros,
    kernel: { bitmapHi, bitmapLo, offsets, valueWords: offsets[tiles]! },
    tiledCsl: { tileOffsets, items: tileOffsets[cslNonzeros.length]! * TILED_CSL_VECTOR_ITEMS },
  };
}

/** The layout of a given matrix, from encodeKernelFormat's bitmaps. */
export function layoutOfMatrix(matrix: Fp16Matrix): SparseWeightLayout {
  const { bitmaps } = encodeKernelFormat(matrix);
  const hi = Uint32Array.from(bitmaps, (b) => Number(b >> 32n));
  const lo = Uint32Array.from(bitmaps, (b) => Number(b & 0xffffffffn));
  return layoutFromBitmaps(matrix.rows, matrix.cols, hi, lo);
}

/**
 * Layouts of seeded unstructured random masks, one per sparsity: element e is kept when its draw
 * u_e ≥ sparsity, so each element is kept with probability 1 − sparsity (to 2⁻³²) and the masks
 * are nested (a 70 % mask holds the 50 % mask's zeros), like pruning one matrix harder. The draws
 * are an inlined xorshift32 stream seeded by mulberry32 — a generator call per element would make
 * a 9216×9216 layout take seconds. Same (shape, sparsities, seed) → same layouts.
 */
export function randomLayouts(m: number, k: number, sparsities: readonly number[], seed: number): SparseWeightLayout[] {
  sparsities.forEach(checkSparsity);
  const tiles = Math.ceil(m / KERNEL_TILE_ROWS) * k;
  const thresholds = sparsities.map((s) => Math.floor(s * 2 ** 32));
  const count = thresholds.length;
  let state = Math.floor(mulberry32(seed)() * 2 ** 32) | 1;
  const halves = thresholds.map(() => new Uint32Array(2 * tiles));
  const words = new Int32Array(count);
  for (let h = 0; h < 2 * tiles; h++) {
    words.fill(0);
    for (let bit = 0; bit < 32; bit++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      const draw = state >>> 0;
      // The kept bit without a branch (floor of a fraction: −1 below the threshold, else 0): half
      // the draws fall each way at random, and the mispredicted compare tripled the layout's time.
      for (let s = 0; s < count; s++)
        words[s] = (words[s]! << 1) | (Math.floor((draw - thresholds[s]!) * 2 ** -32) + 1);
    }
    for (let s = 0; s < count; s++) halves[s]![h] = words[s]! >>> 0;
  }
  return halves.map((both) => {
    const hi = new Uint32Array(tiles);
    const lo = new Uint32Array(tiles);
    for (let t = 0; t < tiles; t++) {
      hi[t] = both[2 * t]!;
      lo[t] = both[2 * t + 1]!;
    }
    return layoutFromBitmaps(m, k, hi, lo);
  });
}

/** One random layout (see randomLayouts). */
export function randomLayout(m: number, k: number, sparsity: number, seed: number): SparseWeightLayout {
  return randomLayouts(m, k, [sparsity], seed)[0]!;
}

/** The dense matrix (kept values 1.0) of a layout's rows r0 … r0+rows−1, columns c0 … c0+cols−1: for bank models of small pieces. */
export function layoutPatch(
  layout: SparseWeightLayout,
  r0: number,
  c0: number,
  rows: number,
  cols: number,
): Fp16Matrix {
  const bits = new Uint16Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    const row = r0 + r;
    const rowInTile = row % KERNEL_TILE_ROWS;
    for (let c = 0; c < cols; c++) {
      const tile = Math.floor(row / KERNEL_TILE_ROWS) * layout.k + c0 + c;
      const word = rowInTile < 32 ? layout.kernel.bitmapHi[tile]! : layout.kernel.bitmapLo[tile]!;
      if ((word >>> (31 - (rowInTile % 32))) & 1) bits[r * cols + c] = 0x3c00;
    }
  }
  return { rows, cols, bits };
}

/** Tiled-CSL items of the first tile of a patch (for the extract step's bank model). */
export function firstTiledCslTileItems(patch: Fp16Matrix): Uint32Array {
  const csl = encodeTiledCsl(patch);
  return csl.items.slice(0, csl.tileOffsets[1]! * TILED_CSL_VECTOR_ITEMS);
}
