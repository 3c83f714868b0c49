import type { Fp16Matrix } from '../matrix.ts';
import { KERNEL_TILE_ROWS, kernelRowBlocks, kernelTileWords } from './kernelFormat.ts';
import { TILED_CSL_OFFSET_PADDING, TILED_CSL_TILE_COLS, TILED_CSL_TILE_ROWS, tiledCslTileItems } from './tiledCsl.ts';

/**
 * The storage size of a pruned FP16 matrix in each sparse format, as % of the dense matrix
 * (docs/spec.md §3.3, paper Fig. 3), in two accountings:
 *
 * **paper** — the paper's idealisation, from shape and nominal sparsity alone: nnz = (1−s)·M·K
 * (not rounded), every index and pointer 16 bits, no padding, no alignment:
 * - CSR: 2·nnz values + 2·nnz column indices + 2·(M+1) row pointers; CSC the same transposed;
 * - COO: 2·nnz values + 2·nnz rows + 2·nnz columns;
 * - ELL: M rows × W slots × (2 B value + 2 B column), W = (1−s)·K (perfectly balanced rows);
 * - Tiled-CSL: 4 B per nonzero (value + location) + a 16-bit offset per 128×64 tile;
 * - 2:4: K/2 values per row + 2 bits of position per kept value (= 56.25 %, any sparsity);
 * - Coruscant: one 64-bit bitmap per 64×1 tile + 2·nnz, nothing else (56.25 % at 50 %).
 *
 * **exact** — bytes of a real encoding of the actual matrix (`measureMatrix`):
 * - Coruscant: the kernel format as the reference encoder lays it out (encodeKernelFormat):
 *   bitmaps, uint32 offsets (tiles+1), nonzeros padded to ×8 halves per tile;
 * - Tiled-CSL: Flash-LLM's layout (encodeTiledCsl): 4-byte items padded to ×4 per tile, int32
 *   offsets (tiles+2);
 * - CSR/CSC/COO/ELL: measured from the matrix (nnz, longest row) with the narrowest standard
 *   integer that can hold each field: indices 16-bit while the dimension is ≤ 65 536, else
 *   32-bit; CSR/CSC pointers 32-bit, since nnz exceeds 16 bits for any matrix worth compressing
 *   (Sputnik's choice: 32-bit row offsets, 16-bit column indices); ELL width = the longest row;
 * - 2:4: K padded to ×4; per row, 2 FP16 values per group of 4 and 4 bits of metadata per group
 *   packed in 16-bit words.
 *
 * 2:4 is *not applicable* (bytes = null) unless every aligned group of 4 along a row holds at
 * most 2 nonzeros — a property of the mask: the exact accounting measures it, the paper
 * accounting takes it as a parameter (`gen formats` sizes uniform unstructured masks: not 2:4).
 *
 * Measured at 9216×9216 (`gen formats --accounting exact`, seed 1), Coruscant exact is 84.80 /
 * 74.82 / 64.83 / 54.86 / 44.91 % at 30…70 % sparsity against the paper's 76.25 … 36.25 %: the
 * uint32 offsets add 3.125 % and the ×8-halves padding ~5.5 %, as docs/reference/facts.md §5 predicts.
 */
export const SIZE_FORMATS = ['CSR', 'CSC', 'COO', 'ELL', 'Tiled-CSL', '2:4', 'Coruscant'] as const;
export type SizeFormat = (typeof SIZE_FORMATS)[number];
export type Accounting = 'paper' | 'exact';

export interface FormatSize {
  readonly format: SizeFormat;
  /** null when the format does not apply to this matrix (2:4 on an unstructured mask). */
  readonly bytes: number | null;
  readonly percentOfDense: number | null;
}

/** What the exact accounting needs from a matrix, gathered by scanning and encoding it. */
export interface MeasuredMatrix {
  readonly rows: number;
  readonly cols: number;
  readonly nonzeros: number;
  readonly maxRowNonzeros: number;
  readonly satisfies24: boolean;
  /** Bytes of encodeKernelFormat's bitmaps + offsets + values for the whole matrix. */
  readonly coruscantBytes: number;
  /** Bytes of encodeTiledCsl's items + tileOffsets for the whole matrix. */
  readonly tiledCslBytes: number;
}

const FP16_BYTES = 2;
const PAPER_INDEX_BYTES = 2;
const POINTER_BYTES = 4;

/** The narrowest standard unsigned integer for indices 0 … dimension−1. */
function indexBytes(dimension: number): number {
  return dimension <= 0x1_0000 ? 2 : 4;
}

function denseBytes(rows: number, cols: number): number {
  return FP16_BYTES * rows * cols;
}

function twoFourGroups(cols: number): number {
  return Math.ceil(cols / 4);
}

function toSizes(rows: number, cols: number, bytes: Record<SizeFormat, number | null>): FormatSize[] {
  const dense = denseBytes(rows, cols);
  return SIZE_FORMATS.map((format) => {
    const b = bytes[format];
    return { format, bytes: b, percentOfDense: b === null ? null : (100 * b) / dense };
  });
}

/** Paper accounting (formula): shape, nominal sparsity, and whether the mask is 2:4. */
export function paperSizes(rows: number, cols: number, sparsity: number, satisfies24: boolean): FormatSize[] {
  const nnz = (1 - sparsity) * rows * cols;
  const perNonzero = FP16_BYTES + PAPER_INDEX_BYTES;
  const tiledCslTiles = Math.ceil(rows / TILED_CSL_TILE_ROWS) * Math.ceil(cols / TILED_CSL_TILE_COLS);
  return toSizes(rows, cols, {
    CSR: perNonzero * nnz + PAPER_INDEX_BYTES * (rows + 1),
    CSC: perNonzero * nnz + PAPER_INDEX_BYTES * (cols + 1),
    COO: (FP16_BYTES + 2 * PAPER_INDEX_BYTES) * nnz,
    ELL: perNonzero * rows * (1 - sparsity) * cols,
    'Tiled-CSL': perNonzero * nnz + PAPER_INDEX_BYTES * tiledCslTiles,
    '2:4': satisfies24 ? (FP16_BYTES * (rows * cols)) / 2 + (rows * cols) / 2 / 4 : null,
    Coruscant: 8 * kernelRowBlocks(rows) * cols + FP16_BYTES * nnz,
  });
}

/** Exact accounting: bytes of real encodings of the measured matrix. */
export function exactSizes(m: MeasuredMatrix): FormatSize[] {
  const { rows, cols, nonzeros: nnz } = m;
  const groups = twoFourGroups(cols);
  return toSizes(rows, cols, {
    CSR: (FP16_BYTES + indexBytes(cols)) * nnz + POINTER_BYTES * (rows + 1),
    CSC: (FP16_BYTES + indexBytes(rows)) * nnz + POINTER_BYTES * (cols + 1),
    COO: (FP16_BYTES + indexBytes(rows) + indexBytes(cols)) * nnz,
    ELL: (FP16_BYTES + indexBytes(cols)) * rows * m.maxRowNonzeros,
    'Tiled-CSL': m.tiledCslBytes,
    '2:4': m.satisfies24 ? rows * (2 * FP16_BYTES * groups + 2 * Math.ceil(groups / 4)) : null,
    Coruscant: m.coruscantBytes,
  });
}

/** Rows per strip: a whole number of both tiled formats' tile rows (64 and 128). */
export const MEASURE_STRIP_ROWS = TILED_CSL_TILE_ROWS;
if (MEASURE_STRIP_ROWS % KERNEL_TILE_ROWS !== 0) throw new Error('strips must hold whole Coruscant row blocks');

/** Running totals of a strip-by-strip measurement. */
interface Totals {
  rows: number;
  nonzeros: number;
  maxRowNonzeros: number;
  satisfies24: boolean;
  coruscantTiles: number;
  coruscantValueWords: number;
  tiledCslTiles: number;
  tiledCslItems: number;
}

/**
 * Measures a matrix fed as consecutive horizontal strips (each a whole number of 128-row tile
 * rows except the last), so a 9216×9216 matrix never has to exist in memory at once, and several
 * matrices can be measured side by side from one pass of a generator.
 *
 * It counts the nonzeros of every Coruscant 64×1 tile and every Tiled-CSL 128×64 tile in one
 * fused pass and applies the encoders' own padding rules (kernelTileWords, tiledCslTileItems) —
 * several times faster than running encodeKernelFormat and encodeTiledCsl, which is what keeps
 * `gen formats` at 9216×9216 to seconds. A property test checks that the byte counts equal
 * those of the real encodings (kernelFormatBytes, tiledCslBytes) for arbitrary matrices.
 */
export class StripMeasurer {
  private readonly totals: Totals = {
    rows: 0,
    nonzeros: 0,
    maxRowNonzeros: 0,
    satisfies24: true,
    coruscantTiles: 0,
    coruscantValueWords: 0,
    tiledCslTiles: 0,
    tiledCslItems: 0,
  };
  private cols: number | undefined;
  private lastStripRows = MEASURE_STRIP_ROWS;

  /** Adds the next strip (rows below the previous strips). */
  add(strip: Fp16Matrix): void {
    if (this.lastStripRows % MEASURE_STRIP_ROWS !== 0)
      throw new RangeError(`only the last strip may have a partial tile row (got ${this.lastStripRows} rows)`);
    if (this.cols !== undefined && strip.cols !== this.cols)
      throw new RangeError(`strips disagree on the column count (${strip.cols} vs ${this.cols})`);
    this.cols = strip.cols;
    this.lastStripRows = strip.rows;
    measureStrip(strip, this.totals);
  }

  /** The measurement of all strips added so far. */
  result(): MeasuredMatrix {
    const { totals, cols } = this;
    if (cols === undefined) throw new RangeError('nothing measured: no strip was added');
    return {
      rows: totals.rows,
      cols,
      nonzeros: totals.nonzeros,
      maxRowNonzeros: totals.maxRowNonzeros,
      satisfies24: totals.satisfies24,
      // Bitmaps (8 B per tile) + one uint32 offset array (tiles + 1) + the padded values.
      coruscantBytes: 8 * totals.coruscantTiles + 4 * (totals.coruscantTiles + 1) + 4 * totals.coruscantValueWords,
      // 4-byte items + one int32 offset array (tiles + 2).
      tiledCslBytes: 4 * totals.tiledCslItems + 4 * (totals.tiledCslTiles + TILED_CSL_OFFSET_PADDING),
    };
  }
}

/** Measures a matrix given as consecutive strips (see StripMeasurer). */
export function measureMatrix(strips: Iterable<Fp16Matrix>): MeasuredMatrix {
  const measurer = new StripMeasurer();
  for (const strip of strips) measurer.add(strip);
  return measurer.result();
}

/** 1 if a 16-bit pattern is not 0x0000, else 0 — arithmetic, so no branch to mispredict. */
function isNonzero(bits: number): number {
  return (bits + 0xffff) >>> 16;
}

/** One strip into the totals: per-tile nonzero counts, row lengths and the 2:4 property. */
function measureStrip(strip: Fp16Matrix, totals: Totals): void {
  const { rows, cols, bits } = strip;
  const tileCols = Math.ceil(cols / TILED_CSL_TILE_COLS);
  const columnCounts = new Uint32Array(cols); // nonzeros per column in the current 64-row block
  const tiledCounts = new Uint32Array(tileCols); // nonzeros per Tiled-CSL tile in the current 128-row tile row
  let over24 = 0; // count of aligned groups of 4 holding more than 2 nonzeros
  for (let row = 0; row < rows; row++) {
    const base = row * cols;
    let inRow = 0;
    // Aligned groups of 4 along the row, unrolled and branch-free: at 30–70 % sparsity every
    // branch on a bit would mispredict. The last group is shorter when K % 4 ≠ 0.
    const whole = cols - (cols % 4);
    for (let col = 0; col < whole; col += 4) {
      const a = isNonzero(bits[base + col]!);
      const b = isNonzero(bits[base + col + 1]!);
      const c = isNonzero(bits[base + col + 2]!);
      const d = isNonzero(bits[base + col + 3]!);
      columnCounts[col] = columnCounts[col]! + a;
      columnCounts[col + 1] = columnCounts[col + 1]! + b;
      columnCounts[col + 2] = columnCounts[col + 2]! + c;
      columnCounts[col + 3] = columnCounts[col + 3]! + d;
      const inGroup = a + b + c + d;
      inRow += inGroup;
      over24 += (2 - inGroup) >>> 31; // 1 when the group holds more than 2
    }
    let inLastGroup = 0;
    for (let col = whole; col < cols; col++) {
      const nonzero = isNonzero(bits[base + col]!);
      columnCounts[col] = columnCounts[col]! + nonzero;
      inLastGroup += nonzero;
    }
    inRow += inLastGroup;
    over24 += (2 - inLastGroup) >>> 31;
    totals.nonzeros += inRow;
    totals.maxRowNonzeros = Math.max(totals.maxRowNonzeros, inRow);
    const lastRow = row === rows - 1;
    if ((row + 1) % KERNEL_TILE_ROWS === 0 || lastRow) {
      for (let col = 0; col < cols; col++) {
        totals.coruscantValueWords += kernelTileWords(columnCounts[col]!);
        const tile = Math.floor(col / TILED_CSL_TILE_COLS);
        tiledCounts[tile] = tiledCounts[tile]! + columnCounts[col]!;
      }
      columnCounts.fill(0);
      totals.coruscantTiles += cols;
    }
    if ((row + 1) % TILED_CSL_TILE_ROWS === 0 || lastRow) {
      for (const count of tiledCounts) totals.tiledCslItems += tiledCslTileItems(count);
      tiledCounts.fill(0);
      totals.tiledCslTiles += tileCols;
    }
  }
  totals.rows += rows;
  if (over24 > 0) totals.satisfies24 = false;
}

/** Splits a whole matrix into measureMatrix's strips (views, no copies). */
export function* stripsOf(matrix: Fp16Matrix, stripRows = MEASURE_STRIP_ROWS): Generator<Fp16Matrix> {
  for (let row0 = 0; row0 < matrix.rows; row0 += stripRows) {
    const rows = Math.min(stripRows, matrix.rows - row0);
    yield { rows, cols: matrix.cols, bits: matrix.bits.subarray(row0 * matrix.cols, (row0 + rows) * matrix.cols) };
  }
}
