import { kernelTileWords, popcount64 } from './kernelFormat.ts';
import {
  readTileArraysDir,
  writeTileArraysDir,
  type ReadTileOptions,
  type TileArrays,
  type TileFileLayout,
  type WriteTileOptions,
} from './kernelFormatFiles.ts';
import { STC_TILE_COLS, type StcMatrix, type StcRowTile } from './stcFormat.ts';

/**
 * The STC format (stcFormat.ts) on disk, in the same three little-endian arrays as the kernel
 * format so one reader serves both: `bitmaps.bin` one uint64 per row tile (m·tilesPerRow + j,
 * LSB first: bit c ↔ column 64·j + c), `offsets.bin` tiles+1 uint32 prefix sums in words,
 * `values.bin` each tile's nonzeros in column order, two FP16 per uint32 (first in the low half),
 * padded to a multiple of 8 halves; `header.json` says `coruscant-stc-format`. Bits for columns
 * past K in the last tile of a row must be clear. (The paper's CUDA code has no STC file: its
 * STC kernel takes the kernel format.)
 */
export const STC_FILE_LAYOUT: TileFileLayout = {
  tag: 'coruscant-stc-format',
  tiles: (rows, cols) => rows * Math.ceil(cols / STC_TILE_COLS),
  outsideMask: (tile, _rows, cols) => {
    const tilesPerRow = Math.ceil(cols / STC_TILE_COLS);
    const used = cols - (tilesPerRow - 1) * STC_TILE_COLS;
    return tile % tilesPerRow === tilesPerRow - 1 && used < STC_TILE_COLS
      ? ((1n << 64n) - 1n) ^ ((1n << BigInt(used)) - 1n)
      : 0n;
  },
  outsideName: (_rows, cols) => `columns past K=${cols}`,
};

/** The row tiles as the three arrays. */
export function stcToArrays(stc: StcMatrix): TileArrays {
  const bitmaps = BigUint64Array.from(stc.tiles, (tile) => tile.bitmap);
  const offsets = new Uint32Array(stc.tiles.length + 1);
  stc.tiles.forEach((tile, t) => (offsets[t + 1] = offsets[t]! + kernelTileWords(tile.values.length)));
  const values = new Uint32Array(offsets[stc.tiles.length]!);
  stc.tiles.forEach((tile, t) =>
    tile.values.forEach((half, v) => {
      const word = offsets[t]! + (v >> 1);
      values[word] = (values[word]! | (v & 1 ? half << 16 : half)) >>> 0;
    }),
  );
  return { rows: stc.rows, cols: stc.cols, bitmaps, offsets, values };
}

/** The three arrays (checked by readTileArraysDir) as row tiles. */
export function stcFromArrays(arrays: TileArrays): StcMatrix {
  const tiles: StcRowTile[] = [...arrays.bitmaps].map((bitmap, t) => {
    const halves = new Uint16Array(popcount64(bitmap));
    for (let v = 0; v < halves.length; v++) {
      const word = arrays.values[arrays.offsets[t]! + (v >> 1)]!;
      halves[v] = v & 1 ? word >>> 16 : word & 0xffff;
    }
    return { bitmap, values: halves };
  });
  return { rows: arrays.rows, cols: arrays.cols, tilesPerRow: Math.ceil(arrays.cols / STC_TILE_COLS), tiles };
}

export function writeStcDir(dir: string, stc: StcMatrix, options: WriteTileOptions = {}): void {
  writeTileArraysDir(dir, STC_FILE_LAYOUT, stcToArrays(stc), options);
}

export function readStcDir(dir: string, options: ReadTileOptions = {}): StcMatrix {
  return stcFromArrays(readTileArraysDir(dir, STC_FILE_LAYOUT, options));
}
