import type { Fp16Matrix } from '../matrix.ts';

/**
 * Flash-LLM's Tiled-CSL format (Xia et al., VLDB 2024; `InitSparseMatrixA_API_NoReorder` in the
 * copy inside dhjoo98/coruscant), encoded for real so the size model counts the bytes an actual
 * encoding occupies rather than a formula:
 *
 * - tiles of 128 rows × 64 columns, row-major tile order;
 * - each nonzero is one uint32 item: FP16 bits in the low half, and in the high half the in-tile
 *   location `row·64 + (col ^ ((row % 8) << 3))` (the XOR swizzle that avoids shared-memory bank
 *   conflicts), items in scan order;
 * - each tile's items are padded to a multiple of 4 (one 16-byte vector) with zero-valued items
 *   placed at the tile's first zero positions, so decompression writes a harmless zero;
 * - `tileOffsets` is int32, tiles + 2 entries, in units of 4 items; entry 0 is 0 and the last
 *   entry repeats the total (Flash-LLM's "empty tile at the end").
 *
 * The bank-balancing shuffle of `InitSparseMatrixA_API` only permutes items inside a tile, so it
 * changes no size and is not modelled. Zero means bits 0x0000 like the Coruscant encoders (the
 * CUDA code tests |v| > 0, which also drops −0 and NaN); shapes that are not multiples of the
 * tile are padded with zeros (the CUDA code asserts they are).
 */
export interface TiledCsl {
  readonly rows: number;
  readonly cols: number;
  readonly tileOffsets: Int32Array;
  readonly items: Uint32Array;
}

export const TILED_CSL_TILE_ROWS = 128;
export const TILED_CSL_TILE_COLS = 64;
/** Items per vector load; each tile's item count is padded to a multiple of this. */
export const TILED_CSL_VECTOR_ITEMS = 4;
/** Extra tileOffsets entries beyond one per tile: the leading 0 and the trailing repeat. */
export const TILED_CSL_OFFSET_PADDING = 2;

/** Items a tile with `nonzeros` nonzeros occupies, padding included. */
export function tiledCslTileItems(nonzeros: number): number {
  return Math.ceil(nonzeros / TILED_CSL_VECTOR_ITEMS) * TILED_CSL_VECTOR_ITEMS;
}

/** The XOR swizzle of a column within its tile row; its own inverse. */
function swizzledColumn(row: number, col: number): number {
  return col ^ ((row % 8) << 3);
}

/** Encodes a dense FP16 matrix (any shape) into Tiled-CSL. */
export function encodeTiledCsl(matrix: Fp16Matrix): TiledCsl {
  const { rows, cols, bits } = matrix;
  const tileRows = Math.ceil(rows / TILED_CSL_TILE_ROWS);
  const tileCols = Math.ceil(cols / TILED_CSL_TILE_COLS);
  const tiles = tileRows * tileCols;
  let nonzeros = 0;
  for (let i = 0; i < bits.length; i++) if (bits[i] !== 0) nonzeros += 1;
  // Room for every nonzero plus the worst-case padding; trimmed at the end.
  const items = new Uint32Array(nonzeros + (TILED_CSL_VECTOR_ITEMS - 1) * tiles);
  const tileOffsets = new Int32Array(tiles + TILED_CSL_OFFSET_PADDING);
  const zeroLocations: number[] = [];
  let written = 0;
  for (let tile = 0; tile < tiles; tile++) {
    const row0 = Math.floor(tile / tileCols) * TILED_CSL_TILE_ROWS;
    const col0 = (tile % tileCols) * TILED_CSL_TILE_COLS;
    const tileStart = written;
    zeroLocations.length = 0;
    for (let r = 0; r < TILED_CSL_TILE_ROWS; r++) {
      const row = row0 + r;
      for (let c = 0; c < TILED_CSL_TILE_COLS; c++) {
        const col = col0 + c;
        const half = row < rows && col < cols ? bits[row * cols + col]! : 0;
        const location = r * TILED_CSL_TILE_COLS + swizzledColumn(r, c);
        if (half !== 0) items[written++] = half | (location << 16);
        else if (zeroLocations.length < TILED_CSL_VECTOR_ITEMS) zeroLocations.push(location);
      }
    }
    const padding = tiledCslTileItems(written - tileStart) - (written - tileStart);
    for (let p = 0; p < padding; p++) items[written++] = zeroLocations[p]! << 16;
    tileOffsets[tile + 1] = written / TILED_CSL_VECTOR_ITEMS;
  }
  tileOffsets[tiles + 1] = tileOffsets[tiles]!;
  return { rows, cols, tileOffsets, items: items.slice(0, written) };
}

/** Decodes Tiled-CSL back into the dense matrix (inverse of encodeTiledCsl). */
export function decodeTiledCsl(format: TiledCsl): Fp16Matrix {
  const { rows, cols, tileOffsets, items } = format;
  const tileCols = Math.ceil(cols / TILED_CSL_TILE_COLS);
  const bits = new Uint16Array(rows * cols);
  const tiles = tileOffsets.length - TILED_CSL_OFFSET_PADDING;
  for (let tile = 0; tile < tiles; tile++) {
    const row0 = Math.floor(tile / tileCols) * TILED_CSL_TILE_ROWS;
    const col0 = (tile % tileCols) * TILED_CSL_TILE_COLS;
    const end = tileOffsets[tile + 1]! * TILED_CSL_VECTOR_ITEMS;
    for (let i = tileOffsets[tile]! * TILED_CSL_VECTOR_ITEMS; i < end; i++) {
      const item = items[i]!;
      const location = item >>> 16;
      const r = Math.floor(location / TILED_CSL_TILE_COLS);
      const c = swizzledColumn(r, location % TILED_CSL_TILE_COLS);
      const row = row0 + r;
      const col = col0 + c;
      if ((item & 0xffff) !== 0) bits[row * cols + col] = item & 0xffff;
    }
  }
  return { rows, cols, bits };
}

/** Bytes of the item and offset arrays as the Flash-LLM kernel loads them. */
export function tiledCslBytes(format: TiledCsl): number {
  return format.items.byteLength + format.tileOffsets.byteLength;
}
