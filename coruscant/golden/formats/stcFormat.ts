import type { Fp16Matrix } from '../matrix.ts';
import { decodeKernelFormat, encodeKernelFormat, type KernelFormat } from './kernelFormat.ts';

/**
 * The Coruscant sparse-tensor-core format (docs/spec.md §3.2, paper Fig. 13): the golden input the RTL
 * bitmap decoder and MmaUnit are checked against. Row tiles of 64 along K: tile (m, j) holds row m,
 * columns 64·j … 64·j+63. The bitmap is LSB first (bit c ↔ column 64·j + c) because the lane
 * detector consumes the lowest four bits each cycle; values are in increasing column order.
 * Columns past K in the last tile are zero padding. Zero means bits 0x0000 (−0 is a value).
 */
export interface StcRowTile {
  /** 64-bit occupancy, bit c ↔ column 64·j + c. */
  readonly bitmap: bigint;
  /** The nonzero FP16 bit patterns in increasing column order; length = popcount(bitmap). */
  readonly values: Uint16Array;
}

export interface StcMatrix {
  readonly rows: number;
  readonly cols: number;
  /** ceil(cols / 64). */
  readonly tilesPerRow: number;
  /** Row tiles, index m·tilesPerRow + j. */
  readonly tiles: StcRowTile[];
}

/** What one thread holds for one row tile: docs/spec.md §3.2's register image. */
export interface StcThreadRegisters {
  /** Bitmap bits 0…31 (columns 64·j … 64·j+31), as an unsigned 32-bit number. */
  readonly bitmapLo: number;
  /** Bitmap bits 32…63. */
  readonly bitmapHi: number;
  /** 32 registers; value v lives in register v >> 1, low half when v is even; unused halves 0. */
  readonly values: Uint32Array;
}

/** Columns per row tile (bits of the bitmap). */
export const STC_TILE_COLS = 64;
/** Value registers per thread: 64 halves, two per register. */
export const STC_VALUE_REGISTERS = 32;

/** Encodes a dense FP16 matrix (any shape) into STC row tiles. */
export function encodeStc(matrix: Fp16Matrix): StcMatrix {
  const { rows, cols, bits } = matrix;
  const tilesPerRow = Math.ceil(cols / STC_TILE_COLS);
  const tiles: StcRowTile[] = [];
  for (let m = 0; m < rows; m++) {
    for (let j = 0; j < tilesPerRow; j++) {
      let bitmap = 0n;
      const values: number[] = [];
      for (let c = 0; c < STC_TILE_COLS && j * STC_TILE_COLS + c < cols; c++) {
        const half = bits[m * cols + j * STC_TILE_COLS + c]!;
        if (half === 0) continue;
        bitmap |= 1n << BigInt(c);
        values.push(half);
      }
      tiles.push({ bitmap, values: Uint16Array.from(values) });
    }
  }
  return { rows, cols, tilesPerRow, tiles };
}

/** Decodes STC row tiles back into the dense matrix (bit-exact inverse of encodeStc). */
export function decodeStc(stc: StcMatrix): Fp16Matrix {
  const { rows, cols, tilesPerRow, tiles } = stc;
  const bits = new Uint16Array(rows * cols);
  for (let m = 0; m < rows; m++) {
    for (let j = 0; j < tilesPerRow; j++) {
      const tile = tiles[m * tilesPerRow + j]!;
      let v = 0;
      for (let c = 0; c < STC_TILE_COLS; c++) {
        if (((tile.bitmap >> BigInt(c)) & 1n) === 0n) continue;
        const col = j * STC_TILE_COLS + c;
        if (col >= cols) throw new RangeError(`STC tile (${m}, ${j}) marks column ${col} past K=${cols}`);
        bits[m * cols + col] = tile.values[v++]!;
      }
      if (v !== tile.values.length)
        throw new RangeError(`STC tile (${m}, ${j}) has ${tile.values.length} values for ${v} bitmap bits`);
    }
  }
  return { rows, cols, bits };
}

/** The register image of one row tile as a thread of the MmaUnit holds it. */
export function stcThreadRegisters(tile: StcRowTile): StcThreadRegisters {
  const values = new Uint32Array(STC_VALUE_REGISTERS);
  tile.values.forEach((half, v) => {
    values[v >> 1] = (values[v >> 1]! | (v & 1 ? half << 16 : half)) >>> 0;
  });
  return {
    bitmapLo: Number(tile.bitmap & 0xffffffffn),
    bitmapHi: Number((tile.bitmap >> 32n) & 0xffffffffn),
    values,
  };
}

// The two conversions go through the dense matrix on purpose: both sides are then checked by
// their own round-trip tests, and the conversion is exact by construction rather than by a
// transposition argument a reader would have to verify.

/** Kernel format (§3.1) → STC format (§3.2), exact. */
export function kernelToStc(format: KernelFormat): StcMatrix {
  return encodeStc(decodeKernelFormat(format));
}

/** STC format (§3.2) → kernel format (§3.1), exact. */
export function stcToKernel(stc: StcMatrix): KernelFormat {
  return encodeKernelFormat(decodeStc(stc));
}
